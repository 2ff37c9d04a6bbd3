// What the realtime hooks share, whatever carries the session (a WebSocket, install.ts; a WebRTC
// data channel, data-channel.ts): the origin's setting read on every message, the session's reading
// opened by its first message, and the reminders sent right after the page's own message, in the
// same call, through the transport's native send (docs/zero-code.md, "Realtime sessions").
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { RealtimeProtocol } from '../../../../engine/wire/index.ts'
import type { AgentReach } from '../../protocol/events.ts'
import type { ZeroCodeMode } from '../../protocol/zero-code-mode.ts'
import type { RealtimeLink, WireAnalysis } from '../wire/analysis.ts'
import { isAudioAppend, isAudioDelta } from './audio-messages.ts'

/** A connection that may be a realtime session, and its reading once a message needed it. */
export interface RealtimeConnection {
  readonly protocol: RealtimeProtocol
  readonly address: string
  readonly reach: AgentReach
  link?: RealtimeLink | undefined
}

export interface SessionReading {
  /** The origin's setting now; off when it cannot be read. */
  modeNow(): ZeroCodeMode
  /** The connection's reading, opened by its first message; undefined if even that fails. */
  linkOf(connection: RealtimeConnection): RealtimeLink | undefined
  /**
   * What the transport's message event carried (`event`, read with `messageData`); a text message
   * is read by the session unless it is the server's audio (audio-messages.ts).
   */
  heard(connection: RealtimeConnection, event: unknown, messageData: unknown): unknown
  /** After the page's own message `data` went out: each reminder due, handed to `send`; the client's audio is never read (audio-messages.ts). */
  after(connection: RealtimeConnection, data: unknown, send: (message: string) => void): void
}

const ownDescriptor = Object.getOwnPropertyDescriptor
/** The getter's arguments, one list for every message: a received message allocates nothing of the guard's before its kind is known. */
const NO_ARGUMENTS: readonly unknown[] = []

/** The own descriptor of `key` on the prototype of a constructor the page may lack. */
export const prototypeMember = (constructor: unknown, key: string): PropertyDescriptor | undefined =>
  typeof constructor === 'function' ? ownDescriptor((constructor as { readonly prototype: object }).prototype, key) : undefined

export function createSessionReading(mode: () => ZeroCodeMode, analysis: () => WireAnalysis): SessionReading {
  function linkOf(connection: RealtimeConnection): RealtimeLink | undefined {
    try {
      connection.link ??= analysis().openRealtime(connection.protocol, connection.address, connection.reach)
    } catch {
      // The guard could not start: the session runs as without it.
    }
    return connection.link
  }

  function modeNow(): ZeroCodeMode {
    try {
      return mode()
    } catch {
      return 'off'
    }
  }

  return {
    modeNow,
    linkOf,
    heard(connection, event, messageData) {
      if (modeNow() === 'off') return undefined
      let data: unknown
      try {
        data = callFunction(messageData as () => unknown, event, NO_ARGUMENTS)
      } catch {
        return undefined
      }
      // The server's audio passes by on its first characters, before any work of the session's.
      if (typeof data === 'string' && !isAudioDelta(data)) linkOf(connection)?.received(data)
      return data
    },
    after(connection, data, send) {
      // The client's audio passes by on its first characters, before any work of the session's.
      if (typeof data !== 'string' || isAudioAppend(data)) return
      const current = modeNow()
      if (current === 'off') return
      const reminders = linkOf(connection)?.sent(data, current) ?? []
      for (let i = 0; i < reminders.length; i++) {
        try {
          send(reminders[i]!)
        } catch {
          // The connection closed under us: nothing more to say on it.
        }
      }
    },
  }
}
