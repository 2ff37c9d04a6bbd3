import { type Scenario, call } from '../scenario.ts'

const READ = call('read_file', { path: 'package.json' })

/** Identical calls issued together in one step: counted in the order they were issued. */
export const parallel: Scenario = {
  id: 'parallel',
  title: 'Parallel: identical calls in one step',
  description:
    'The model asks for the same read_file three times in one step, then twice more in the next. The calls count in order: the gentle reminder follows all three results of the first step, the detailed one the results of the second.',
  lead: { name: 'parallel', system: 'You are a coding agent. You may call several tools at once.' },
  prompt: 'What version is this package?',
  allowDelete: false,
  reply(conversation) {
    const steps = conversation.steps.length
    if (steps === 0) return { calls: [READ, READ, READ] }
    if (steps === 1) return { calls: [READ, READ] }
    return { answer: 'tiny-dates is at version 1.4.0.' }
  },
}
