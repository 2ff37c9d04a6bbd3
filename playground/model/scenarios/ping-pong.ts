import { callsOf, firstNoticeStep } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const SOURCE = call('read_file', { path: 'src/format.ts' })
const TEST = call('read_file', { path: 'test/format.test.ts' })
const GIVE_UP = 10

/** Two reads taking turns: never two alike in a row, so only the cycle detector sees the loop. */
export const pingPong: Scenario = {
  id: 'ping-pong',
  title: 'Ping-pong: two reads taking turns',
  description:
    'The model reads src/format.ts, then test/format.test.ts, then the source again, back and forth, and stops as soon as it is told it is going round in circles. No two calls in a row are alike, so the default guard never reminds and the model gives up after ten reads; with the cycles option the loop is caught after the second round.',
  lead: { name: 'ping-pong', system: 'You are a coding agent working on the tiny-dates project. Compare the code with its tests.' },
  prompt: 'Does formatDate do what its tests expect?',
  allowDelete: false,
  preset: 'cycles',
  reply(conversation) {
    const calls = callsOf(conversation)
    if (firstNoticeStep(conversation) !== -1) return { answer: 'I was going back and forth between the same two files. They differ: the test expects 2024-03-07, formatDate does not pad.' }
    if (calls.length >= GIVE_UP) return { answer: 'I read both files again and again without getting further; I give up.' }
    return { calls: [calls.length % 2 === 0 ? SOURCE : TEST] }
  },
}
