// Sends one Chat Completions request through the page's own `fetch`, so whatever watches the
// page's traffic (the extension's zero-code mode) sees it exactly as it would a real agent's.
import type { ChatCompletion, ChatRequest } from './wire.ts'
import { errorText } from '../../engine/safe-reading.ts'

export interface ModelEndpoint {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  readonly baseUrl: string
  readonly model: string
  readonly apiKey?: string
}

/** The model could not be reached or answered with an error; `status` 0 means no HTTP answer. */
class ModelError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

function completionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`
}

export async function complete(endpoint: ModelEndpoint, request: Omit<ChatRequest, 'model'>, signal?: AbortSignal): Promise<ChatCompletion> {
  const url = completionsUrl(endpoint.baseUrl)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`
  let response: Response
  try {
    // Looked up on every call: the page's fetch is whatever is installed now.
    response = await globalThis.fetch(url, { method: 'POST', headers, body: JSON.stringify({ ...request, model: endpoint.model }), ...(signal ? { signal } : {}) })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new ModelError(`cannot reach ${url}: ${errorText(error)} (is the server running, and does it allow this origin (CORS)?)`, 0)
  }
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new ModelError(`${url} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`, response.status)
  }
  if (!response.ok) {
    const message = (body as { error?: { message?: unknown } }).error?.message
    throw new ModelError(`${url} answered ${response.status}: ${typeof message === 'string' ? message : text.slice(0, 200)}`, response.status)
  }
  const completion = body as ChatCompletion
  if (!Array.isArray(completion.choices) || typeof completion.choices[0]?.message !== 'object' || completion.choices[0].message === null)
    throw new ModelError(`${url} answered without choices[0].message: not a Chat Completions response`, response.status)
  return completion
}
