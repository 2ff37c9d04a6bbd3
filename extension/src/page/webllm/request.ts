// Which messages to a worker are WebLLM's chat completion requests: the `WebWorkerMLCEngine` client
// of `@mlc-ai/web-llm` posts `{ kind, uuid, content }`, and for `chat.completions.create` the kind is
// `chatCompletionNonStreaming` or `chatCompletionStreamInit` with the OpenAI Chat Completions
// request object in `content.request`. Every message a page posts to any worker passes here, so the
// check reads as little as it can, `kind` first, and only own data properties: no getter of the
// page's runs, and nothing inherited can make a message look like one.
import { isArray } from '../../../../engine/intrinsics.ts'
import { isRecord } from '../../../../engine/safe-reading.ts'

// Captured when the page script loads (document_start), before a page script can replace them.
const ownDescriptor = Reflect.getOwnPropertyDescriptor
const hasOwn = Object.hasOwn

type Fields = Readonly<Record<string, unknown>>

/** A chat completion request as the client posts it: the message, its content, and the request in it. */
export interface ChatRequestMessage {
  readonly message: object
  readonly content: Fields
  readonly request: Fields
}

/** The chat completion request `message` carries; undefined for every other message. */
export function chatRequestOf(message: unknown): ChatRequestMessage | undefined {
  if (typeof message !== 'object' || message === null) return undefined
  const kind = own(message, 'kind')
  if (kind !== 'chatCompletionNonStreaming' && kind !== 'chatCompletionStreamInit') return undefined
  const content = own(message, 'content')
  if (typeof own(message, 'uuid') !== 'string' || !isRecord(content)) return undefined
  const request = own(content, 'request')
  if (!isRecord(request) || !isArray(own(request, 'messages'))) return undefined
  return { message, content, request }
}

/**
 * The model that answers the request, as the client chose it: the stream's `selectedModelId`, the
 * request's `model`, else the one model loaded. What the panel shows as the request's address.
 */
export function modelOf({ content, request }: ChatRequestMessage): string {
  const loaded = own(content, 'modelId')
  const candidates = [own(content, 'selectedModelId'), own(request, 'model'), isArray(loaded) && loaded.length > 0 ? loaded[0] : undefined]
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]
    if (typeof candidate === 'string' && candidate !== '') return candidate
  }
  return 'unknown-model'
}

function own(value: object, key: string): unknown {
  const descriptor = ownDescriptor(value, key)
  return descriptor !== undefined && hasOwn(descriptor, 'value') ? descriptor.value : undefined
}
