// A scripted model behind the four wire formats zero-code mode reads: OpenAI Chat Completions,
// OpenAI Responses, Anthropic Messages and Gemini generateContent. It streams the way the real
// APIs do (SSE), answers by the script of the model named in the request, and rejects, with 400
// and the reason, a request that breaks the format's rules (a tool call without its result, text
// before tool_result blocks, a reminder wedged between a call and its result...), as the real
// APIs would. Every request is recorded as it arrived, byte for byte. Like the real Responses API,
// it keeps the responses it gave (unless asked not to, `store: false`), and a request continuing
// one (`previous_response_id`) is read as that response's whole chain followed by its own input.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
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

type Json = Record<string, unknown>
type Turn = { readonly calls: readonly (ScriptedCall & { readonly id: string })[] } | { readonly text: string }

interface Format {
  readonly format: LlmFormat
  /** The model named by the request (Gemini names it in the path). */
  model(body: Json, path: string): string
  stream(body: Json, url: URL): boolean
  /** Why the request is invalid, or undefined. */
  validate(body: Json): string | undefined
  /** How many tool-call turns the model has taken in this conversation. */
  stepsTaken(body: Json): number
  idPrefix: string
  /** `id`: the response's id, where the format has one. */
  respond(turn: Turn, model: string, stream: boolean, id: string): { json?: unknown; events?: SseEvent[] }
}

interface SseEvent {
  readonly event?: string
  readonly data: unknown
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const CREATED = 1_700_000_000

/** Fails the validation with `reason`. */
class Invalid extends Error {}
const invalid = (reason: string): never => {
  throw new Invalid(reason)
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

const argsText = (call: ScriptedCall) => JSON.stringify(call.args)

const openaiChat: Format = {
  format: 'openai-chat',
  idPrefix: 'call_',
  model: (body) => String(body.model),
  stream: (body) => body.stream === true,

  validate(body) {
    const messages = list(body.messages)
    if (messages.length === 0) return 'messages must be a non-empty array'
    let pending = new Set<unknown>()
    const unanswered = () =>
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`
    messages.forEach((message, i) => {
      if (!isObject(message)) return invalid(`messages[${i}] must be an object`)
      const { role } = message
      if (role === 'tool') {
        if (!pending.delete(message.tool_call_id)) invalid(`Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[${i}])`)
        return
      }
      if (pending.size > 0) invalid(unanswered())
      if (!['system', 'developer', 'user', 'assistant'].includes(role as string)) invalid(`messages[${i}].role "${String(role)}" is not supported`)
      if (role === 'user' && typeof message.content !== 'string' && !list(message.content).every((p) => isObject(p) && (p.type === 'text' ? typeof p.text === 'string' : p.type === 'image_url')))
        invalid(`messages[${i}].content: invalid content parts`)
      if (role === 'assistant') pending = new Set(list(message.tool_calls).map((c) => (isObject(c) ? c.id : undefined)))
    })
    return pending.size > 0 ? unanswered() : undefined
  },

  stepsTaken: (body) => list(body.messages).filter((m) => isObject(m) && m.role === 'assistant' && list(m.tool_calls).length > 0).length,

  respond(turn, model, stream) {
    const base = { id: `chatcmpl-${turn2id(turn)}`, created: CREATED, model }
    const finish = 'calls' in turn ? 'tool_calls' : 'stop'
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
    if (!stream) {
      const message =
        'calls' in turn
          ? { role: 'assistant', content: null, tool_calls: turn.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argsText(c) } })) }
          : { role: 'assistant', content: turn.text }
      return { json: { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage } }
    }
    const chunk = (delta: Json, finishReason: string | null = null) => ({
      data: { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] },
    })
    const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })]
    if ('calls' in turn) {
      turn.calls.forEach((c, index) => {
        const text = argsText(c)
        const half = Math.ceil(text.length / 2)
        events.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: text.slice(0, half) } }] }))
        events.push(chunk({ tool_calls: [{ index, function: { arguments: text.slice(half) } }] }))
      })
    } else {
      for (const piece of words(turn.text)) events.push(chunk({ content: piece }))
    }
    events.push(chunk({}, finish))
    events.push({ data: { ...base, object: 'chat.completion.chunk', choices: [], usage } })
    events.push({ data: '[DONE]' })
    return { events }
  },
}

const openaiResponses: Format = {
  format: 'openai-responses',
  idPrefix: 'call_',
  model: (body) => String(body.model),
  stream: (body) => body.stream === true,

  validate(body) {
    const input = list(body.input)
    if (input.length === 0) return 'input must be a non-empty list'
    const calls = new Set<unknown>()
    const answered = new Set<unknown>()
    input.forEach((item, i) => {
      if (!isObject(item)) return invalid(`input[${i}] must be an object`)
      const type = item.type ?? 'message'
      if (type === 'message') {
        const inputParts = ['input_text', 'input_image', 'input_file']
        const allowed = item.role === 'assistant' ? ['output_text', 'refusal'] : inputParts
        if (!['user', 'assistant', 'system', 'developer'].includes(item.role as string)) invalid(`input[${i}].role is invalid`)
        if (typeof item.content !== 'string' && !list(item.content).every((p) => isObject(p) && allowed.includes(p.type as string)))
          invalid(`Invalid value for 'input[${i}].content': expected parts of type ${allowed.join(', ')}`)
      } else if (type === 'function_call') {
        if (typeof item.arguments !== 'string' || typeof item.name !== 'string') invalid(`input[${i}]: a function_call needs a name and string arguments`)
        calls.add(item.call_id)
      } else if (type === 'function_call_output') {
        if (!calls.has(item.call_id)) invalid(`No tool call found for function call output with call_id ${String(item.call_id)}.`)
        answered.add(item.call_id)
      } else if (type !== 'reasoning' && type !== 'item_reference') {
        invalid(`Invalid value: '${String(type)}' at input[${i}].type`)
      }
    })
    const missing = [...calls].filter((id) => !answered.has(id))
    return missing.length > 0 ? `No tool output found for function call ${missing.join(', ')}.` : undefined
  },

  stepsTaken(body) {
    let steps = 0
    let inCalls = false
    for (const item of list(body.input)) {
      const type = isObject(item) ? item.type : undefined
      if (type === 'function_call') {
        if (!inCalls) steps += 1
        inCalls = true
      } else if (type !== 'reasoning') inCalls = false
    }
    return steps
  },

  respond(turn, model, stream, id) {
    const output = responsesOutput(turn, id)
    const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 }
    const response = (status: string, out: Json[]) => ({
      id,
      object: 'response',
      created_at: CREATED,
      status,
      model,
      output: out,
      error: null,
      incomplete_details: null,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      text: { format: { type: 'text' } },
      usage: status === 'completed' ? usage : null,
    })
    if (!stream) return { json: response('completed', output) }
    let seq = 0
    const event = (type: string, fields: Json): SseEvent => ({ event: type, data: { type, sequence_number: seq++, ...fields } })
    const events: SseEvent[] = [event('response.created', { response: response('in_progress', []) }), event('response.in_progress', { response: response('in_progress', []) })]
    output.forEach((item, output_index) => {
      if (item.type === 'function_call') {
        events.push(event('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } }))
        events.push(event('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments }))
        events.push(event('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments }))
      } else {
        const text = 'text' in turn ? turn.text : ''
        const part = { type: 'output_text', text: '', annotations: [] }
        events.push(event('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }))
        events.push(event('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part }))
        for (const delta of words(text)) events.push(event('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta, logprobs: [] }))
        events.push(event('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text, logprobs: [] }))
        events.push(event('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: { ...part, text } }))
      }
      events.push(event('response.output_item.done', { output_index, item }))
    })
    events.push(event('response.completed', { response: response('completed', output) }))
    return { events }
  },
}

/** A Responses API response's output items for the turn. */
function responsesOutput(turn: Turn, id: string): Json[] {
  return 'calls' in turn
    ? turn.calls.map((c) => ({ type: 'function_call', id: c.id.replace('call_', 'fc_'), call_id: c.id, name: c.name, arguments: argsText(c), status: 'completed' }))
    : [{ type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text, annotations: [] }] }]
}

interface StoredResponse {
  readonly previous: string | undefined
  /** The request's input as it arrived, then the response's output. */
  readonly items: readonly unknown[]
  readonly calls: readonly unknown[]
}

/** The Responses API's memory: each response given, with the input of the request that made it. */
function createStoredResponses() {
  const responses = new Map<string, StoredResponse>()
  const inputOf = (body: Json): unknown[] => (typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : list(body.input))

  return {
    remember(id: string, body: Json, output: readonly Json[]): void {
      const previous = typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined
      const calls = output.filter((item) => item.type === 'function_call').map((item) => item.call_id)
      responses.set(id, { previous, items: [...inputOf(body), ...output], calls })
    },

    /**
     * The body as a stateless request holding the whole chain would be. The outputs of the
     * previous response's calls must come first in the input, every one of them, and nothing
     * (a message, a reminder) may come between them and their calls.
     */
    expand(body: Json): Json {
      const id = body.previous_response_id
      if (id === undefined || id === null) return body
      const previous = responses.get(String(id)) ?? invalid(`Previous response with id '${String(id)}' not found.`)
      const pending = new Set(previous.calls)
      list(body.input).forEach((item, i) => {
        if (pending.size === 0) return
        if (isObject(item) && item.type === 'function_call_output' && pending.delete(item.call_id)) return
        invalid(`input[${i}]: expected the output of function call ${[...pending].join(', ')} of the previous response first.`)
      })
      if (pending.size > 0) invalid(`No tool output found for function call ${[...pending].join(', ')}.`)
      const chain: unknown[][] = []
      for (let at: string | undefined = String(id); at !== undefined; at = responses.get(at)?.previous) {
        const response = responses.get(at) ?? invalid(`Previous response with id '${at}' not found.`)
        chain.unshift([...response.items])
      }
      const { previous_response_id: _, ...rest } = body
      return { ...rest, input: [...chain.flat(), ...inputOf(body)] }
    },
  }
}

const anthropic: Format = {
  format: 'anthropic',
  idPrefix: 'toolu_',
  model: (body) => String(body.model),
  stream: (body) => body.stream === true,

  validate(body) {
    if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required'
    const messages = list(body.messages)
    if (messages.length === 0) return 'messages: at least one message is required'
    let uses: string[] = []
    messages.forEach((message, i) => {
      if (!isObject(message)) return invalid(`messages.${i}: must be an object`)
      if (i === 0 && message.role !== 'user') invalid('messages.0.role: the first message must use the "user" role')
      if (message.role !== 'user' && message.role !== 'assistant') invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`)
      const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : list(message.content)
      if (!blocks.every((b) => isObject(b) && typeof b.type === 'string')) invalid(`messages.${i}.content: every block needs a type`)
      const typed = blocks as Json[]
      if (message.role === 'assistant') {
        if (uses.length > 0) invalid(toolUseWithoutResult(i - 1, uses))
        uses = typed.filter((b) => b.type === 'tool_use').map((b) => String(b.id))
        return
      }
      const results = typed.filter((b) => b.type === 'tool_result')
      const firstOther = typed.findIndex((b) => b.type !== 'tool_result')
      const lastResult = typed.reduce((last, b, k) => (b.type === 'tool_result' ? k : last), -1)
      if (firstOther >= 0 && lastResult > firstOther) invalid(`messages.${i}.content.${firstOther}: tool_result blocks must come first in the user message, before any other content`)
      for (const [k, result] of results.entries()) {
        if (!uses.includes(String(result.tool_use_id)))
          invalid(
            `messages.${i}.content.${k}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(result.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          )
      }
      const missing = uses.filter((id) => !results.some((r) => r.tool_use_id === id))
      if (missing.length > 0) invalid(toolUseWithoutResult(i - 1, missing))
      uses = []
    })
    return uses.length > 0 ? toolUseWithoutResult(messages.length - 1, uses) : undefined
  },

  stepsTaken: (body) => list(body.messages).filter((m) => isObject(m) && m.role === 'assistant' && list(m.content).some((b) => isObject(b) && b.type === 'tool_use')).length,

  respond(turn, model, stream) {
    const content: Json[] = 'calls' in turn ? turn.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args })) : [{ type: 'text', text: turn.text }]
    const stopReason = 'calls' in turn ? 'tool_use' : 'end_turn'
    const message = { id: `msg_${turn2id(turn)}`, type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }
    if (!stream) return { json: message }
    const ev = (type: string, fields: Json = {}): SseEvent => ({ event: type, data: { type, ...fields } })
    const events: SseEvent[] = [ev('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } })]
    content.forEach((block, index) => {
      if (block.type === 'tool_use') {
        const text = JSON.stringify(block.input)
        events.push(ev('content_block_start', { index, content_block: { ...block, input: {} } }))
        events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: text.slice(0, 5) } }))
        events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: text.slice(5) } }))
      } else {
        events.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }))
        for (const piece of words(String(block.text))) events.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }))
      }
      events.push(ev('content_block_stop', { index }))
    })
    events.push(ev('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } }))
    events.push(ev('message_stop'))
    return { events }
  },
}

function toolUseWithoutResult(index: number, ids: readonly string[]): string {
  return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
}

const gemini: Format = {
  format: 'gemini',
  idPrefix: 'fc_',
  model: (_, path) => /\/models\/([^/:]+):/.exec(path)![1]!,
  stream: (_, url) => url.pathname.endsWith(':streamGenerateContent'),

  validate(body) {
    const contents = list(body.contents)
    if (contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified'
    let calls = 0
    contents.forEach((content, i) => {
      if (!isObject(content)) return invalid(`contents[${i}] must be an object`)
      const parts = list(content.parts)
      if (parts.length === 0) invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`)
      if (content.role !== undefined && !['user', 'model', 'function'].includes(content.role as string)) invalid(`Please use a valid role: user, model, function. (contents[${i}])`)
      const responses = parts.filter((p) => isObject(p) && isObject(p.functionResponse)).length
      if (calls > 0) {
        if (responses !== calls) invalid('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.')
        if (responses !== parts.length) invalid(`contents[${i}]: a function response turn must hold only functionResponse parts`)
      } else if (responses > 0) {
        invalid('Please ensure that function response turn comes immediately after a function call turn.')
      }
      calls = content.role === 'model' ? parts.filter((p) => isObject(p) && isObject(p.functionCall)).length : 0
    })
    return calls > 0 ? 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.' : undefined
  },

  stepsTaken: (body) => list(body.contents).filter((c) => isObject(c) && c.role === 'model' && list(c.parts).some((p) => isObject(p) && isObject(p.functionCall))).length,

  respond(turn, model, stream) {
    const chunk = (parts: Json[], finishReason?: string) => ({
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: model,
      responseId: `r_${turn2id(turn)}`,
    })
    const parts: Json[] = 'calls' in turn ? turn.calls.map((c) => ({ functionCall: { name: c.name, args: c.args } })) : [{ text: turn.text }]
    if (!stream) return { json: chunk(parts, 'STOP') }
    if ('calls' in turn) return { events: [{ data: chunk(parts, 'STOP') }] }
    const pieces = words(turn.text)
    return { events: pieces.map((text, n) => ({ data: chunk([{ text }], n === pieces.length - 1 ? 'STOP' : undefined) })) }
  },
}

const FORMATS: readonly Format[] = [openaiChat, openaiResponses, anthropic, gemini]

/** The text in small pieces, as a model streams it. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? ['']
}

function turn2id(turn: Turn): string {
  return 'calls' in turn ? turn.calls[0]!.id : 'final'
}
