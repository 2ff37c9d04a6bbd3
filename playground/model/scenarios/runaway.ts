import { callsOf } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const TEST = call('run_tests', { suite: 'unit' })
const BLOCKED = 'Blocked by repeat-tool-guard'

/** A model that reads reminders and ignores them: only a blocked call stops it. */
export const runaway: Scenario = {
  id: 'runaway',
  title: 'Runaway: ignores every reminder',
  description:
    'The model re-runs the failing unit tests and ignores every reminder. The default guard can only advise, so the run goes on to the step limit. With stopAfter (the stop options) the agent loop asks the guard before each call: the sixth identical run is blocked, the model reads why as the tool result, and stops.',
  lead: { name: 'runaway', system: 'You are a coding agent. Make the unit tests pass.' },
  prompt: 'The unit tests fail. Make them pass.',
  allowDelete: false,
  preset: 'stop',
  reply(conversation) {
    const last = callsOf(conversation).at(-1)
    if (last?.result?.startsWith(BLOCKED)) return { answer: `The guard stopped me from running the tests again: ${last.result}` }
    return { calls: [TEST], say: last ? 'Still failing. Running them again.' : undefined }
  },
}
