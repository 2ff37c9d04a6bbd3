// What a page script can try against the channel between the page script and the relay
// (docs/security.md, "The channel between the page script and the relay"). Each runs inside the
// page, handed to Playwright's or Puppeteer's `evaluate` (so it uses nothing from outside itself),
// and resolves once the page's own window listener has seen what it posted: a script of the
// extension listening on the window would have had it by then, having listened since
// document_start.
import type { GuardConfig } from '../../../engine/index.ts'
import { openaiChatBody, repeat } from '../../fixtures/wire/conversations.ts'

export interface Forgery {
  /** The tag the forgeries carry, the relay's or the page script's. */
  readonly source: string
  readonly v: number
}

/** Posts `messages` to the page's own window, one by one; resolves when the last was delivered. */
export async function postToSelf(messages: readonly unknown[]): Promise<void> {
  for (const message of messages)
    await new Promise<void>((delivered) => {
      const seen = () => (window.removeEventListener('message', seen), delivered())
      window.addEventListener('message', seen)
      window.postMessage(message, '*')
    })
}

/** The relay's messages, forged: zero-code mode off, and a config under which no reminder ever comes. */
export const relayForgeries = ({ source, v }: Forgery, config: GuardConfig): unknown[] => [
  { source, v, kind: 'zero-code', mode: 'off' },
  { source, v, kind: 'config', config: { ...config, thresholds: [90, 95, 99] } },
]

/** From now on, keeps every window message's data in `window.seenOnWindow`. */
export function watchWindow(): void {
  const seen: unknown[] = []
  Object.assign(window, { seenOnWindow: seen })
  window.addEventListener('message', (event) => void seen.push(event.data))
}

export const seenOnWindow = (): unknown[] => (window as unknown as { seenOnWindow: unknown[] }).seenOnWindow

/**
 * Offers the page's own channel as the relay does, and posts `messages` on it: a page script that
 * took it would apply them. Whatever comes back on it is kept in `window.forgedChannelGot`.
 */
export function offerForgedChannel({ event, messages }: { readonly event: string; readonly messages: readonly unknown[] }): void {
  const { port1, port2 } = new MessageChannel()
  const got: unknown[] = []
  Object.assign(window, { forgedChannelGot: got })
  port1.onmessage = (message) => void got.push(message.data)
  window.dispatchEvent(new MessageEvent(event, { ports: [port2] }))
  for (const message of messages) port1.postMessage(message)
}

export const forgedChannelGot = (): unknown[] => (window as unknown as { forgedChannelGot: unknown[] }).forgedChannelGot

/** A Chat Completions conversation with the same call three times: a guarded request gets the gentle reminder. */
export const loopBody = (model: string, system: string): string =>
  JSON.stringify({ ...openaiChatBody({ system, turns: [{ prompt: 'Find it.' }, ...repeat({ name: 'search', args: { q: 'it' } }, 3)] }), model })

/** Sends `body` from the page with fetch, as an SDK would; resolves when the answer was read. */
export const sendChat = (body: string): Promise<number> =>
  fetch('/v1/chat/completions', { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then(async (r) => (await r.text(), r.status))

/** The user messages of a request body as the model received it. */
export const userTexts = (body: string): unknown[] => (JSON.parse(body) as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === 'user').map((m) => m.content)
