import { callsOf } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

// The same three arguments, written in a different order each time.
const ORDERS: readonly Readonly<Record<string, unknown>>[] = [
  { pattern: 'todo', path: 'src', ignoreCase: true },
  { path: 'src', pattern: 'todo', ignoreCase: true },
  { ignoreCase: true, pattern: 'todo', path: 'src' },
  { path: 'src', ignoreCase: true, pattern: 'todo' },
  { ignoreCase: true, path: 'src', pattern: 'todo' },
]

/** Arguments that differ only in key order are the same call. */
export const keyOrder: Scenario = {
  id: 'key-order',
  title: 'Key order: same arguments, shuffled',
  description:
    'The model sends the same grep five times with its argument keys in a different order each time. Canonical arguments sort keys, so this is one run: reminders after the third and fifth call, the detailed one quoting the sorted arguments.',
  lead: { name: 'key-order', system: 'You are a coding agent working on the tiny-dates project.' },
  prompt: 'Find the todo comments, ignoring case.',
  allowDelete: false,
  reply(conversation) {
    const count = callsOf(conversation).length
    if (count < ORDERS.length) return { calls: [call('grep', ORDERS[count]!)] }
    return { answer: 'Two TODO comments: src/format.ts:1 and src/parse.ts:1.' }
  },
}
