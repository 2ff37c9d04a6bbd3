import { callsOf } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const DELETE = call('delete_path', { path: 'build' })

/** A call the permission layer refuses, hammered: denied calls still count. */
export const denied: Scenario = {
  id: 'denied',
  title: 'Denied: hammering a refused call',
  description:
    'The model tries to delete build/ while delete_path is denied, five times. Denied calls count: reminders after the third and fifth refusal. Allow delete_path and the first call succeeds.',
  lead: { name: 'denied', system: 'You are a coding agent that keeps the project tidy.' },
  prompt: 'Delete the build folder.',
  allowDelete: false,
  reply(conversation) {
    const calls = callsOf(conversation)
    const last = calls.at(-1)
    if (last && !last.result?.startsWith('Permission denied')) return { answer: `Done: ${last.result ?? 'deleted'}` }
    if (calls.length < 5) return { calls: [DELETE] }
    return { answer: 'I cannot delete build/: delete_path is denied in this project. Please delete it yourself or allow the tool.' }
  },
}
