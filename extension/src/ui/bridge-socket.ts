// A socket to a guarded Node process's bridge (docs/node-bridge.md, "In the panel"), as the panel and
// the popup both open it: every message checked like every other hop's before anyone reads it, the
// process's going away told once, and a new attempt with backoff while no process answers.
import type { BridgeToClient, ClientToBridge } from '../protocol/bridge-messages.ts'
import type { DropReason } from '../protocol/messages.ts'
import { checkBridgeToClient } from '../protocol/validate.ts'
import { reconnectDelay } from './backoff.ts'

type Message<K extends BridgeToClient['kind']> = Extract<BridgeToClient, { readonly kind: K }>

export interface BridgeHandlers {
  /** First on every connection: the process attached and its snapshot. */
  hello(message: Message<'hello'>): void
  events(message: Message<'events'>): void
  refused(reason: string): void
  /** The socket of an attached process closed: the process went away (or the socket was closed). */
  gone(): void
  /** A message that failed its check, dropped unread. */
  dropped(reason: DropReason): void
}

export interface BridgeSocketOptions {
  readonly url: string
  readonly handlers: BridgeHandlers
  readonly delay?: (attempt: number) => number
}

export interface BridgeSocket {
  /** Sends to the process; false when none is attached. */
  send(message: ClientToBridge): boolean
  close(): void
}

export function openBridgeSocket({ url, handlers, delay = reconnectDelay }: BridgeSocketOptions): BridgeSocket {
  let socket: WebSocket | undefined
  let attached = false
  let attempt = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false

  function open(): void {
    timer = undefined
    if (closed) return
    try {
      socket = new WebSocket(url)
    } catch {
      retry()
      return
    }
    socket.onmessage = (message) => receive(message.data)
    // A failed connection is followed by its close, where the next attempt is made.
    socket.onerror = () => {}
    socket.onclose = () => {
      socket = undefined
      if (attached) {
        attached = false
        handlers.gone()
      }
      retry()
    }
  }

  function retry(): void {
    if (closed) return
    attempt += 1
    timer = setTimeout(open, delay(attempt))
  }

  function receive(data: unknown): void {
    let message: unknown
    try {
      message = typeof data === 'string' ? JSON.parse(data) : undefined
    } catch {
      message = undefined
    }
    const checked = checkBridgeToClient(message)
    if (!checked.ok) {
      handlers.dropped(checked.reason)
      return
    }
    const value = checked.value
    switch (value.kind) {
      case 'hello':
        attempt = 0
        attached = true
        handlers.hello(value)
        break
      case 'events':
        handlers.events(value)
        break
      case 'refused':
        handlers.refused(value.reason)
        break
    }
  }

  open()
  return {
    send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN || !attached) return false
      socket.send(JSON.stringify(message))
      return true
    },
    close() {
      closed = true
      if (timer !== undefined) clearTimeout(timer)
      socket?.close()
    },
  }
}
