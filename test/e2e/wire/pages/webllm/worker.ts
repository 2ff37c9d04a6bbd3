// A stand-in for WebLLM's worker (`WebWorkerMLCEngineHandler`) that needs no GPU and no model: it
// answers the client's message protocol, checks every chat completion request by WebLLM's own rules
// (its exported `postInitAndCheckFieldsChatCompletion`, and the conversation rules its engine applies)
// and plays a model that calls one tool again and again, then answers. Every message it receives
// is handed to the page on a BroadcastChannel, exactly as it arrived (structured clone and all), so
// a test sees what reached the worker.
import { ModelType, postInitAndCheckFieldsChatCompletion, type ChatCompletion, type ChatCompletionChunk, type ChatCompletionRequest } from '@mlc-ai/web-llm'
import { ANSWER, CALL, LOOPS, RECEIVED_CHANNEL } from './script.ts'

interface Request {
  readonly kind: string
  readonly uuid: string
  readonly content: Record<string, unknown> & { request?: ChatCompletionRequest; streamId?: string; modelId?: string[] }
}

const received = new BroadcastChannel(RECEIVED_CHANNEL)
const streams = new Map<string, ChatCompletionChunk[]>()
let loaded: string[] = []

self.onmessage = (event: MessageEvent<Request>) => {
  const message = event.data
  received.postMessage({ worker: self.name, data: message })
  // A worker of the page's that is no WebLLM engine: it only reports what it got.
  if (self.name !== 'webllm') return
  try {
    const content = answer(message)
    // Messages the client does not wait for (log level, app config) get no answer.
    if (content !== NO_ANSWER) self.postMessage({ kind: 'return', uuid: message.uuid, content })
  } catch (error) {
    self.postMessage({ kind: 'throw', uuid: message.uuid, content: String(error) })
  }
}

const NO_ANSWER = Symbol('no answer')

function answer({ kind, content }: Request): unknown {
  switch (kind) {
    case 'reload':
      loaded = content.modelId!
      return null
    case 'setLogLevel':
    case 'setAppConfig':
      return NO_ANSWER
    case 'chatCompletionNonStreaming':
      return completion(checked(content.request!, content.modelId!))
    case 'chatCompletionStreamInit':
      streams.set(content.streamId!, chunks(checked(content.request!, content.modelId!)))
      return null
    case 'completionStreamNextChunk':
      // No more chunks: `undefined` ends the client's generator.
      return streams.get(content.streamId!)!.shift()
    case 'completionStreamReturn':
      streams.delete(content.streamId!)
      return null
    default:
      throw new Error(`unexpected message kind ${kind}`)
  }
}

/** The request as WebLLM's engine would take it, or an error as WebLLM would throw it. */
function checked(request: ChatCompletionRequest, modelId: string[]): ChatCompletionRequest {
  if (modelId.join() !== loaded.join()) throw new Error(`model ${modelId.join()} is not the one loaded`)
  // It updates the request in place (Hermes' system prompt): a copy, so what was received stays as it came.
  postInitAndCheckFieldsChatCompletion(structuredClone(request), modelId[0]!, ModelType.LLM)
  // What getConversationFromChatCompletionRequest checks on its way through the history.
  request.messages.forEach((message, i) => {
    if (message.role === 'system' && i !== 0) throw new Error('system message not first')
    if (message.role === 'assistant' && typeof message.content !== 'string') throw new Error("assistant's message content must be a string")
    if (!['system', 'user', 'assistant', 'tool'].includes(message.role)) throw new Error(`unsupported role ${message.role}`)
  })
  return request
}

/** Whether the model calls the tool once more: it has called it fewer than `LOOPS` times. */
const callsAgain = (request: ChatCompletionRequest) => request.messages.filter((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0).length < LOOPS

/** As WebLLM answers with tools: ids are the calls' indexes, the content null. */
function completion(request: ChatCompletionRequest): ChatCompletion {
  const again = callsAgain(request)
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: loaded[0]!,
    choices: [
      {
        index: 0,
        finish_reason: again ? 'tool_calls' : 'stop',
        logprobs: null,
        message: again ? { role: 'assistant', content: null, tool_calls: [{ id: '0', type: 'function', function: CALL }] } : { role: 'assistant', content: ANSWER },
      },
    ],
  } as ChatCompletion
}

/** As WebLLM streams with tools: the calls come in the final chunk, without ids. */
function chunks(request: ChatCompletionRequest): ChatCompletionChunk[] {
  const chunk = (delta: object, finish_reason: string | null) =>
    ({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 0, model: loaded[0]!, choices: [{ index: 0, delta, finish_reason }] }) as ChatCompletionChunk
  return callsAgain(request)
    ? [chunk({ role: 'assistant', content: '' }, null), chunk({ role: 'assistant', tool_calls: [{ index: 0, type: 'function', function: CALL }] }, 'tool_calls')]
    : [chunk({ role: 'assistant', content: ANSWER }, null), chunk({}, 'stop')]
}
