import { callsOf } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const SEARCH = call('grep', { pattern: 'formatDate' })
const EXPLORER = 'explorer'

/**
 * A lead that starts a subagent and both run the very same search, their steps interleaved.
 * Each agent has its own chain, so each gets reminders for its own repeats only.
 */
export const subagent: Scenario = {
  id: 'subagent',
  title: 'Subagent: two conversations, interleaved',
  description:
    'The lead starts an "explorer" subagent; both repeat the same grep, taking steps in turn. The lead gets the gentle reminder after its third grep; the explorer after its third, and the detailed one after its fifth. One agent never counts, or resets, the other.',
  lead: { name: 'lead', system: 'You are lead, a coding agent that delegates research to subagents.' },
  prompt: 'Where is formatDate used? Ask a subagent to check too.',
  allowDelete: false,
  reply(conversation) {
    const calls = callsOf(conversation)
    const searches = calls.filter((c) => c.name === 'grep').length
    if (conversation.system.includes('a subagent')) {
      if (searches < 5) return { calls: [SEARCH] }
      return { answer: 'formatDate is defined in src/format.ts and used in src/index.ts, src/report.ts and test/format.test.ts.' }
    }
    if (calls.length === 0) return { calls: [call('spawn_subagent', { name: EXPLORER, task: 'Find every file that uses formatDate and report them.' })] }
    if (searches < 3) return { calls: [SEARCH] }
    const waited = calls.find((c) => c.name === 'wait_subagent')
    if (!waited) return { calls: [call('wait_subagent', { name: EXPLORER })] }
    return { answer: `Both searches agree. The explorer reports: ${waited.result ?? '(no report)'}` }
  },
}
