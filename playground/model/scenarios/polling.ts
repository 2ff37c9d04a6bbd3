import { callsOf } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const CHECK = call('run_tests', { suite: 'integration' })

/** Legitimate polling: the same call, but each result shows progress, so the model goes on. */
export const polling: Scenario = {
  id: 'polling',
  title: 'Polling: run_tests until it passes',
  description:
    'The model polls the integration pipeline, which finishes one job per check. The guard reminds after the third identical check; the model reads it, sees the results still change, and polls once more until the pipeline passes. The guard advises, it never blocks.',
  lead: { name: 'polling', system: 'You are a release agent. Wait for the integration pipeline to pass before you report.' },
  prompt: 'Is the integration pipeline green?',
  allowDelete: false,
  preset: 'result-aware',
  reply(conversation) {
    const calls = callsOf(conversation)
    const last = calls.at(-1)
    if (last?.result?.includes(': passed')) return { answer: `Yes, it passed after ${calls.length} checks: ${last.result}` }
    if (calls.length === 0) return { calls: [CHECK] }
    const reminded = conversation.steps.at(-1)!.notices.length > 0
    return {
      calls: [CHECK],
      say: reminded ? 'Noted: I am repeating this check, but every result shows progress, so polling is still the right move.' : `Still running (${last?.result ?? 'no result'}); checking again.`,
    }
  },
}
