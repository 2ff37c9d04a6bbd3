// An in-page agent on the `openai` SDK, written as its docs show, that the user keeps telling to
// "continue" after it answers: a model that gives the same answer every time loops on its answer.
// It records the usage each streamed response reported, as the SDK hands it over. Bundled for the
// browser by the test setup; it knows nothing of the guard.
import OpenAI from 'openai'
import { answerCalls, readChatStream } from './chat-stream.ts'
import { MAX_STEPS, origin, READ_FILE, type AgentOptions } from './read-file-tool.ts'

export interface AnsweringRun {
  readonly answers: readonly string[]
  /** Each response's `usage.total_tokens`, in the order the responses came. */
  readonly tokens: readonly number[]
}

async function openaiChatContinued(o: AgentOptions & { readonly rounds: number }): Promise<AnsweringRun> {
  const client = new OpenAI({ baseURL: `${origin()}/v1`, apiKey: 'test-key', dangerouslyAllowBrowser: true })
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: o.system },
    { role: 'user', content: o.prompt },
  ]
  const answers: string[] = []
  const tokens: number[] = []
  const results: string[] = []
  for (let step = 0; step < MAX_STEPS && answers.length < o.rounds; step++) {
    const stream = await client.chat.completions.create({ model: o.model, messages, tools: [{ type: 'function', function: READ_FILE }], stream: true, stream_options: { include_usage: true } })
    const { text, calls } = await readChatStream(stream, (usage) => tokens.push(usage.total_tokens))
    if (calls.length === 0) {
      answers.push(text)
      messages.push({ role: 'assistant', content: text }, { role: 'user', content: 'continue' })
      continue
    }
    answerCalls(messages, text, calls, results)
  }
  return { answers, tokens }
}

Object.assign(window, { answering: { openaiChatContinued } })
