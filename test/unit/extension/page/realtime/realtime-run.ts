// A realtime session as the Agents SDK runs it, on any transport the hook's tests stand in for (a
// WebSocket, a data channel): the server opens the session, then calls one tool with the same
// arguments again and again, and the client answers each call with its result and a response.create.
import { functionCallOutput, functionCallResponse, sessionCreated } from '../../../../fixtures/realtime/openai-events.ts'

/** What a test can do with one connection of the page. */
export interface Carrier {
  send(data: unknown): void
  /** The server sends `data`: every message listener hears it, in the order they were added. */
  hear(data: unknown): void
}

export const READ_ARGS = '{"path":"a.txt"}'

/** `times` calls of one tool with the same arguments, each answered as the Agents SDK answers. */
export function runSession(carrier: Carrier, times: number): void {
  carrier.hear(JSON.stringify(sessionCreated('You read files.')))
  for (let n = 0; n < times; n++) {
    const call = functionCallResponse('read_file', READ_ARGS)
    for (const event of call.events) carrier.hear(JSON.stringify(event))
    carrier.send(JSON.stringify(functionCallOutput(call.callId, 'same')))
    carrier.send('{"type":"response.create"}')
  }
}

/** Each message sent, by its item's type (`function_call_output`, `message`) or else its own type. */
export const sentKinds = (sent: readonly unknown[]): string[] =>
  sent.map((text) => {
    const event = JSON.parse(text as string) as { type: string; item?: { type: string } }
    return event.item?.type ?? event.type
  })

/** The kinds of the (at most) two messages sent right after each tool result. */
export function twoAfterEachOutput(sent: readonly unknown[]): string[][] {
  const kinds = sentKinds(sent)
  return kinds.flatMap((kind, i) => (kind === 'function_call_output' ? [kinds.slice(i + 1, i + 3)] : []))
}

/** What `twoAfterEachOutput` gives for six calls when the guard reminds: after the 3rd and 5th results, each before the next response.create. */
export const REMINDED_SIX = [
  ['response.create', 'function_call_output'],
  ['response.create', 'function_call_output'],
  ['message', 'response.create'],
  ['response.create', 'function_call_output'],
  ['message', 'response.create'],
  ['response.create'],
]
