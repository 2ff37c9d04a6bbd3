import { callsOf } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const SEARCH = call('grep', { pattern: 'TODO', path: 'src' })
const PASSES = 5

/** The to-do list written between searches: it changes every time, so it is a different call. */
const plan = (searches: number) =>
  call('todo_write', {
    todos: [
      { content: 'Find every TODO under src/', status: searches < PASSES ? 'in_progress' : 'completed' },
      { content: `Double-check the search (${searches} of ${PASSES} passes)`, status: searches < PASSES ? 'in_progress' : 'completed' },
    ],
  })

/** A loop that updates its to-do list between identical searches. */
export const bookkeeping: Scenario = {
  id: 'bookkeeping',
  title: 'Bookkeeping: todo_write between repeats',
  description:
    'The model repeats the same grep five times with a todo_write after each. The recommended config excludes todo_write, so it neither counts nor breaks the run: reminders after the third and fifth grep. Remove todo_write from exclude and they are gone.',
  lead: { name: 'bookkeeping', system: 'You are a coding agent. Keep your to-do list up to date with todo_write as you work.' },
  prompt: 'List the TODO comments under src/.',
  allowDelete: false,
  reply(conversation) {
    const calls = callsOf(conversation)
    const searches = calls.filter((c) => c.name === 'grep').length
    const last = calls.at(-1)
    if (last?.name === 'grep') return { calls: [plan(searches)] }
    if (searches < PASSES) return { calls: [SEARCH] }
    return { answer: 'Two TODOs: src/format.ts:1 (pad month and day) and src/parse.ts:1 (reject dates that do not exist).' }
  },
}
