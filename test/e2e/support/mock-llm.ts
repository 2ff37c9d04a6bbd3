// A scripted model behind the four wire formats zero-code mode reads: OpenAI Chat Completions,
// OpenAI Responses, Anthropic Messages and Gemini generateContent. It streams the way the real
// APIs do (SSE), answers by the script of the model named in the request, and rejects, with 400
// and the reason, a request that breaks the format's rules (a tool call without its result, text
// before tool_result blocks, a reminder wedged between a call and its result...), as the real
// APIs would. Every request is recorded as it arrived, byte for byte. Like the real Responses API,
// it keeps the responses it gave (unless asked not to, `store: false`), and a request continuing
// one (`previous_response_id`) is read as that response's whole chain followed by its own input.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { anthropic } from './mock-llm-anthropic.ts'
import { type Format, Invalid, invalid, isObject, type Json, type SseEvent, type Turn, turn2id } from './mock-llm-format.ts'
import { gemini } from './mock-llm-gemini.ts'
import { openaiChat } from './mock-llm-openai-chat.ts'
import { createStoredResponses, openaiResponses, responsesOutput } from './mock-llm-openai-responses.ts'
import type { TestServer } from './server.ts'

export type LlmFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini'

export interface ScriptedCall {
  readonly name: string
  readonly args: Readonly<Record<string, unknown>>
}

/** The model's turns: the calls of each step in order, then a text answer. */
export interface ModelScript {
  readonly steps: readonly (readonly ScriptedCall[])[]
  readonly answer?: string
}

export interface Exchange {
  readonly format: LlmFormat
  readonly path: string
  readonly model: string
  readonly stream: boolean
  readonly headers: IncomingHttpHeaders
  /** The request body exactly as it arrived. */
  readonly body: string
  readonly status: number
  /** Why the request was rejected, when it was. */
  readonly error?: string
}

export interface MockLlm {
  readonly exchanges: Exchange[]
  /** Scripts the model of that name; a request for an unscripted model is rejected. */
  script(model: string, script: ModelScript): void
}

export function mountMockLlm(server: TestServer): MockLlm {
  const scripts = new Map<string, ModelScript>()
  const exchanges: Exchange[] = []
  const stored = createStoredResponses()
  let responses = 0

  server.route(async (req, res, raw) => {
    if (req.method !== 'POST') return false
    const url = new URL(req.url ?? '/', 'http://mock')
    const format = FORMATS.find((f) => ROUTES[f.format].test(url.pathname))
    if (!format) return false
    const body = raw.toString('utf8')
    const record = (status: number, model: string, stream: boolean, error?: string) =>
      exchanges.push({ format: format.format, path: url.pathname, model, stream, headers: req.headers, body, status, ...(error ? { error } : {}) })
    let json: Json
    try {
      const parsed: unknown = JSON.parse(body)
      json = isObject(parsed) ? parsed : invalid('the body must be a JSON object')
    } catch (error) {
      const reason = error instanceof Invalid ? error.message : `the body is not JSON: ${String(error)}`
      record(400, '', false, reason)
      return (reject(res, format.format, reason), true)
    }
    const model = format.model(json, url.pathname)
    const stream = format.stream(json, url)
    const script = scripts.get(model)
    let reason: string | undefined
    // A Responses request continuing a stored response is checked, and answered, as its whole chain.
    let whole = json
    try {
      if (format.format === 'openai-responses') whole = stored.expand(json)
      reason = script ? format.validate(whole) : `model "${model}" is not scripted`
    } catch (error) {
      reason = error instanceof Invalid ? error.message : String(error)
    }
    if (reason !== undefined) {
      record(400, model, stream, reason)
      return (reject(res, format.format, reason), true)
    }
    record(200, model, stream)
    const step = format.stepsTaken(whole)
    const calls = script!.steps[step]
    const turn: Turn = calls ? { calls: calls.map((call, j) => ({ ...call, id: `${format.idPrefix}${step + 1}_${j + 1}` })) } : { text: script!.answer ?? 'Done.' }
    const id = `resp_${turn2id(turn)}_${++responses}`
    if (format.format === 'openai-responses' && json.store !== false) stored.remember(id, json, responsesOutput(turn, id))
    const { json: reply, events } = format.respond(turn, model, stream, id)
    if (events) await writeSse(res, events, format.format === 'gemini')
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply))
    return true
  })

  return {
    exchanges,
    script: (model, script) => void scripts.set(model, script),
  }
}

const ROUTES: Readonly<Record<LlmFormat, RegExp>> = {
  'openai-chat': /\/chat\/completions$/,
  'openai-responses': /\/responses$/,
  anthropic: /\/v1\/messages$/,
  gemini: /\/models\/[^/:]+:(stream)?[gG]enerateContent$/,
}

function reject(res: ServerResponse, format: LlmFormat, message: string): void {
  const body =
    format === 'anthropic'
      ? { type: 'error', error: { type: 'invalid_request_error', message } }
      : format === 'gemini'
        ? { error: { code: 400, message, status: 'INVALID_ARGUMENT' } }
        : { error: { message, type: 'invalid_request_error', param: null, code: null } }
  res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

/** Writes the events one by one, yielding between them, so the client reads a real stream. */
async function writeSse(res: ServerResponse, events: readonly SseEvent[], crlf: boolean): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const end = crlf ? '\r\n\r\n' : '\n\n'
  for (const { event, data } of events) {
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}${end}`)
    await new Promise((ok) => setImmediate(ok))
  }
  res.end()
}

const FORMATS: readonly Format[] = [openaiChat, openaiResponses, anthropic, gemini]
