import { callsOf, firstNoticeStep } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const TEST = call('run_tests', { suite: 'unit' })
const FIXED_FORMAT =
  "export function formatDate(date: Date): string {\n  const pad = (n: number) => String(n).padStart(2, '0')\n  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`\n}\n"

/**
 * A model that re-runs failing tests, hoping, until something in its input tells it it is
 * repeating itself; then it reads the code, fixes it and runs the tests once more.
 */
export const stubborn: Scenario = {
  id: 'stubborn',
  title: 'Stubborn: repeats until reminded',
  description:
    'The model re-runs the failing unit tests until it reads a reminder, then changes approach: it reads src/format.ts, fixes it and the tests pass. With the guard off it never gets the hint and runs into the step limit.',
  lead: { name: 'stubborn', system: 'You are a coding agent. Make the unit tests pass.' },
  prompt: 'The unit tests fail. Make them pass.',
  allowDelete: false,
  reply(conversation) {
    const noticed = firstNoticeStep(conversation)
    if (noticed === -1) {
      const last = callsOf(conversation).at(-1)
      if (last?.result?.includes('failed') === false) return { answer: 'The unit tests pass.' }
      return { calls: [TEST], say: last ? 'Still failing. Running them again.' : undefined }
    }
    const after = conversation.steps.slice(noticed + 1).flatMap((s) => s.calls)
    if (!after.some((c) => c.name === 'read_file')) return { calls: [call('read_file', { path: 'src/format.ts' })], say: 'I was repeating myself. Let me read the code under test instead.' }
    if (!after.some((c) => c.name === 'write_file')) return { calls: [call('write_file', { path: 'src/format.ts', content: FIXED_FORMAT })], say: 'formatDate does not pad month and day. Fixing it.' }
    const last = after.at(-1)!
    if (last.name !== 'run_tests') return { calls: [TEST] }
    return { answer: last.result?.includes('failed') ? `The fix did not help:\n${last.result}` : 'Fixed: formatDate now pads month and day, and the unit tests pass.' }
  },
}
