// Real AI SDK traffic for the agent-stream tests: a server loop made by `streamText` on a scripted
// model (`MockLanguageModelV3` from `ai/test`, answering as a provider does: unique call ids,
// usage, finish reasons) and sent as a UI message stream, and the request bodies `useChat`'s
// `DefaultChatTransport` posts.
import { DefaultChatTransport, jsonSchema, readUIMessageStream, stepCountIs, streamText, tool, type UIMessage, type UIMessageChunk } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

type StreamPart = Parameters<typeof streamFrom>[0][number]

function streamFrom(parts: readonly ({ type: string } & Record<string, unknown>)[]) {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part)
      controller.close()
    },
  })
}

/** A model that calls `name` with `input` for its first `calls` steps, then answers in text. */
export function loopingModel(name: string, input: object, calls: number) {
  let step = 0
  return new MockLanguageModelV3({
    doStream: async () => {
      step += 1
      const parts: StreamPart[] =
        step <= calls
          ? [
              { type: 'stream-start', warnings: [] },
              { type: 'tool-input-start', id: `call_${step}`, toolName: name },
              { type: 'tool-input-delta', id: `call_${step}`, delta: JSON.stringify(input) },
              { type: 'tool-input-end', id: `call_${step}` },
              { type: 'tool-call', toolCallId: `call_${step}`, toolName: name, input: JSON.stringify(input) },
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: USAGE },
            ]
          : [
              { type: 'stream-start', warnings: [] },
              { type: 'text-start', id: `text_${step}` },
              { type: 'text-delta', id: `text_${step}`, delta: 'done' },
              { type: 'text-end', id: `text_${step}` },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE },
            ]
      return { stream: streamFrom(parts) as never }
    },
  })
}

const PATH_SCHEMA = jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] })

/** The text of the UI message stream a server sends for a loop of `calls` identical server-side calls. */
export async function serverLoopStream(calls: number, result: unknown = 'export const a = 1'): Promise<string> {
  const stream = streamText({
    model: loopingModel('read_file', { path: 'a.ts' }, calls),
    prompt: 'make the tests pass',
    tools: { read_file: tool({ inputSchema: PATH_SCHEMA, execute: async () => result }) },
    stopWhen: stepCountIs(calls + 1),
  })
  return stream.toUIMessageStreamResponse().text()
}

/** The UI message stream of a model step whose call runs on the page (no `execute` on the server). */
export async function clientToolStream(callId: string): Promise<string> {
  const stream = streamText({
    model: new MockLanguageModelV3({
      doStream: async () => ({
        stream: streamFrom([
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: callId, toolName: 'read_file', input: '{"path":"a.ts"}' },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: USAGE },
        ]) as never,
      }),
    }),
    prompt: 'make the tests pass',
    tools: { read_file: tool({ inputSchema: PATH_SCHEMA }) },
  })
  return stream.toUIMessageStreamResponse().text()
}

/** The body `DefaultChatTransport` posts for `messages` of chat `chatId`. */
export async function chatRequest(chatId: string, messages: UIMessage[]): Promise<string> {
  let body = ''
  const transport = new DefaultChatTransport({
    api: 'http://localhost/api/chat',
    fetch: async (_url, init) => {
      body = String(init?.body)
      return new Response('data: {"type":"finish"}\n\ndata: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
    },
  })
  const stream = await transport.sendMessages({ chatId, messages, trigger: 'submit-message', messageId: undefined, abortSignal: undefined })
  // Read to its end, as useChat does.
  const reader = stream.getReader()
  while (!(await reader.read()).done);
  return body
}

export type { UIMessage, UIMessageChunk }

/** The chunks of a UI message stream's text. */
export function chunksOf(text: string): UIMessageChunk[] {
  return text
    .split('\n\n')
    .map((event) => event.replace(/^data: /, ''))
    .filter((data) => data !== '' && data !== '[DONE]')
    .map((data) => JSON.parse(data) as UIMessageChunk)
}

/** The assistant message `useChat` makes of a stream, continuing `message` when the stream continues it. */
export async function assistantFrom(text: string, message?: UIMessage): Promise<UIMessage> {
  const chunks = chunksOf(text)
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
  let last: UIMessage | undefined
  for await (const state of readUIMessageStream({ message, stream })) last = state
  return structuredClone(last!)
}

export const PROMPT: UIMessage = { id: 'msg_user_1', role: 'user', parts: [{ type: 'text', text: 'make the tests pass' }] }

/**
 * A chat whose tool runs on the page (`onToolCall` + `addToolOutput`, `sendAutomaticallyWhen`):
 * each response streams one call, the page runs it, and the next request carries its result in
 * the same assistant message. Returns each request's body and the stream that answered it.
 */
export async function clientToolChat(chatId: string, calls: number, output: (n: number) => unknown = () => 'export const a = 1') {
  let messages: UIMessage[] = [PROMPT]
  const turns: { body: string; stream: string }[] = []
  let body = await chatRequest(chatId, messages)
  for (let n = 1; n <= calls; n++) {
    const stream = await clientToolStream(`call_${n}`)
    turns.push({ body, stream })
    const last = messages[messages.length - 1]!
    // useChat names a new assistant message itself when the stream does not.
    const assistant = await assistantFrom(stream, last.role === 'assistant' ? last : { id: `msg_assistant_${n}`, role: 'assistant', parts: [] })
    const part = assistant.parts.find((p) => 'toolCallId' in p && p.toolCallId === `call_${n}`) as Record<string, unknown>
    part.state = 'output-available'
    part.output = output(n)
    messages = [...messages.filter((m) => m.id !== assistant.id), assistant]
    body = await chatRequest(chatId, messages)
  }
  return { turns, last: body }
}
