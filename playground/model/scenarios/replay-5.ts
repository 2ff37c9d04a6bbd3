import { callsOf } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const READ = call('read_file', { path: 'src/format.ts' })

/** The reference replay: the same call five times, reminders or not, then it stops. */
export const replay5: Scenario = {
  id: 'replay-5',
  title: 'Replay: the same call five times',
  description: 'The model reads src/format.ts five times in a row and ignores what it is told. The gentle reminder lands after the third result, the detailed one after the fifth.',
  lead: { name: 'replay-5', system: 'You are a coding agent working on the tiny-dates project. Use the tools to inspect it.' },
  prompt: 'Why does formatDate print 2024-3-7 instead of 2024-03-07?',
  allowDelete: false,
  reply(conversation) {
    if (callsOf(conversation).length < 5) return { calls: [READ] }
    return { answer: 'formatDate builds the date from getMonth() + 1 and getDate() without padding them to two digits.' }
  },
}
