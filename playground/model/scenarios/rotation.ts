import { callsOf, firstNoticeStep } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const ROUND = [call('grep', { pattern: 'TODO' }), call('read_file', { path: 'src/format.ts' }), call('read_file', { path: 'src/parse.ts' })]
const ROUNDS = 4

/** Three calls in turn: a cycle of period 3 that exact repeats never see. */
export const rotation: Scenario = {
  id: 'rotation',
  title: 'Rotation: a three-call cycle',
  description:
    'The model greps for TODOs, reads src/format.ts, reads src/parse.ts, and starts over, four rounds in all unless it is told it is going round in circles. The default guard sees no repeat; with the cycles option the rotation is caught after its second round.',
  lead: { name: 'rotation', system: 'You are a coding agent working on the tiny-dates project. Triage its TODOs.' },
  prompt: 'Which TODO should we fix first?',
  allowDelete: false,
  preset: 'cycles',
  reply(conversation) {
    const calls = callsOf(conversation)
    if (firstNoticeStep(conversation) !== -1) return { answer: 'I kept cycling through the same three calls. Fix the padding TODO in src/format.ts first: a test fails on it.' }
    if (calls.length >= ROUNDS * ROUND.length) return { answer: 'After four rounds through the TODOs I still cannot decide.' }
    return { calls: [ROUND[calls.length % ROUND.length]!] }
  },
}
