// What a realtime client sent after each tool result, and what it sends when the guard reminds the
// Reader agent of the realtime pages, which reads a.txt six times (docs/zero-code.md, "Realtime
// sessions"): the gentle reminder after the 3rd result and the detailed one after the 5th.
import { reminderItem } from '../../fixtures/realtime/openai-events.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'

export type Message = Record<string, unknown>

export const DETAILED = detailed('read_file', 5, '{"path":"a.txt"}')

/** An OpenAI Realtime tool result: the `function_call_output` item a client creates. */
export const isOutput = (m: Message) => m.type === 'conversation.item.create' && (m.item as { type?: string }).type === 'function_call_output'

/** The messages the client sent right after each tool result, up to (not counting) the next result or the end. */
export function afterEachResult(messages: Message[], isResult: (m: Message) => boolean = isOutput): Message[][] {
  const at = messages.flatMap((m, i) => (isResult(m) ? [i] : []))
  return at.map((start, n) => messages.slice(start + 1, at[n + 1] ?? messages.length))
}

/** The first two messages after each OpenAI Realtime tool result; a response.create by its type alone. */
export const twoAfterEachResult = (messages: Message[]) => afterEachResult(messages).map((after) => after.slice(0, 2).map((m) => (m.type === 'response.create' ? 'response.create' : m)))

/** What `twoAfterEachResult` gives when the guard reminds: each reminder before its response.create. */
export const REMINDED_AFTER_RESULTS = [
  ['response.create'],
  ['response.create'],
  [reminderItem(GENTLE), 'response.create'],
  ['response.create'],
  [reminderItem(DETAILED), 'response.create'],
  ['response.create'],
]
