import { callsOf } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const ANSWER = 'tiny-dates is a small, dependency-free date library: formatDate(date) returns YYYY-MM-DD and parseDate(text) returns a Date.'
const SOURCES = ['src/format.ts', 'src/parse.ts']

/** A content loop: whatever the user writes next, the model gives its first answer again, word for word. */
export const sameAnswer: Scenario = {
  id: 'same-answer',
  title: 'Same answer: the model repeats its final answer',
  description:
    'The model reads the README and answers. Write to it again (any follow-up, such as "Tell me more"): it gives the same answer, word for word, every time. No tool call repeats, so the guard on the page has nothing to count; only the repeated-answer option of the extension\'s zero-code mode (repeatedText) sees it, and after its reminder the model reads the sources and answers something new. The guard switch goes off when it is picked: zero-code mode leaves alone an agent that reports its calls to the page API.',
  lead: { name: 'same-answer', system: 'You are a coding agent working on the tiny-dates project. Explain the project to the user.' },
  prompt: 'What does tiny-dates do?',
  allowDelete: false,
  preset: 'repeated-text',
  // The agent must not report its calls to the page API: zero-code mode would take it for the page's own agent.
  guardOn: false,
  reply(conversation) {
    const calls = callsOf(conversation)
    if (conversation.answerNotices.length > 0) {
      if (calls.length < SOURCES.length)
        return { calls: [call('read_file', { path: SOURCES[calls.length]! })], say: calls.length === 0 ? 'I keep saying the same thing. Let me read the sources for details.' : undefined }
      return {
        answer:
          'In detail: formatDate does not pad month and day yet (2024-3-7, where the tests expect 2024-03-07), and parseDate accepts dates that do not exist (2024-02-30 rolls over to March). Both carry a TODO.',
      }
    }
    if (conversation.answers.length === 0 && calls.length === 0) return { calls: [call('read_file', { path: 'README.md' })] }
    return { answer: ANSWER }
  },
}
