// The agent the transports' tests speak for: after its prompt it reads the same file again and
// again, the loop the guard is there to catch.
import { openaiChatBody, repeat, type Script } from '../../../../fixtures/wire/conversations.ts'

export const READ = { name: 'read_file', args: { path: 'a.txt' } }
export const loop = (steps: number): Script => ({ system: 'You are a test agent.', turns: [{ prompt: 'go' }, ...repeat(READ, steps)] })
export const LOOP3: Script = loop(3)
/** An OpenAI chat request of `LOOP3`, as text. */
export const LLM_BODY = JSON.stringify(openaiChatBody(LOOP3))
