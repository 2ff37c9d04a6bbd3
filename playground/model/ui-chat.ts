// The playground's scripted chat server for agents whose loop runs on the server
// (docs/zero-code.md, "Agents whose loop runs on the server"): it answers a `useChat` request with an AI
// SDK UI message stream written by the real `ai` package (`createUIMessageStreamResponse`), as a
// route of an app server would. Its agent searches the code for the same thing six times, then
// answers. `tools=server`: the whole loop runs here, in one response, each call with its result.
// `tools=client`: each response ends on a call the page runs (a client-side tool), and the next
// request brings its result. Every response also says which user messages the "server's model"
// received after the first (a `data-received` part): the reminders the page's requests carried.
import { createUIMessageStream, createUIMessageStreamResponse, type UIMessage, type UIMessageStreamWriter } from 'ai'

export const UI_CHAT_ROUTE = 'ui/chat'
export const LOOPS = 6
const INPUT = { q: 'threshold' }
const RESULT = 'No match in src/ (searched 42 files).'
const ANSWER = 'The loader never reads "threshold": it is not in src/ at all.'

let calls = 0
const callId = () => `call_${Date.now().toString(36)}_${++calls}`

function userTexts(messages: readonly UIMessage[]): string[] {
  return messages.filter((m) => m.role === 'user').flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])))
}

/** The tool results the conversation holds: every `tool-search` part with its output. */
function resultsIn(messages: readonly UIMessage[]): number {
  return messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool-search' && 'state' in p && p.state === 'output-available').length
}

function step(writer: UIMessageStreamWriter, write: () => void): void {
  writer.write({ type: 'start-step' })
  write()
  writer.write({ type: 'finish-step' })
}

function toolCall(writer: UIMessageStreamWriter, withResult: boolean): void {
  const toolCallId = callId()
  writer.write({ type: 'tool-input-start', toolCallId, toolName: 'search' })
  writer.write({ type: 'tool-input-delta', toolCallId, inputTextDelta: JSON.stringify(INPUT) })
  writer.write({ type: 'tool-input-available', toolCallId, toolName: 'search', input: INPUT })
  if (withResult) writer.write({ type: 'tool-output-available', toolCallId, output: RESULT })
}

function answer(writer: UIMessageStreamWriter): void {
  writer.write({ type: 'text-start', id: 'answer' })
  writer.write({ type: 'text-delta', id: 'answer', delta: ANSWER })
  writer.write({ type: 'text-end', id: 'answer' })
}

/** The answer to a `useChat` request body (`{id, messages, trigger}`); a 400 for anything else. */
export function respondUiChat(body: unknown, tools: 'server' | 'client'): Response {
  const messages = (body as { messages?: unknown } | undefined)?.messages
  if (!Array.isArray(messages)) return new Response(JSON.stringify({ error: 'expected a useChat request: {id, messages}' }), { status: 400, headers: { 'content-type': 'application/json' } })
  const history = messages as UIMessage[]
  const stream = createUIMessageStream({
    execute({ writer }) {
      writer.write({ type: 'data-received', data: { userMessages: userTexts(history).slice(1) } })
      if (tools === 'server') {
        for (let n = 0; n < LOOPS; n++) step(writer, () => toolCall(writer, true))
        step(writer, () => answer(writer))
      } else if (resultsIn(history) < LOOPS) {
        step(writer, () => toolCall(writer, false))
        writer.write({ type: 'finish', finishReason: 'tool-calls' })
      } else step(writer, () => answer(writer))
    },
  })
  return createUIMessageStreamResponse({ stream })
}
