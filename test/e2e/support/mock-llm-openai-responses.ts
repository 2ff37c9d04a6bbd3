// The OpenAI Responses format of the mock model (mock-llm.ts): its rules, its answers, whole or
// streamed, and its memory of the responses it gave, which a request continues by
// `previous_response_id`.
import { argsText, CREATED, type Format, invalid, isObject, type Json, list, type SseEvent, type Turn, words } from './mock-llm-format.ts'

export const openaiResponses: Format = {
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
export function responsesOutput(turn: Turn, id: string): Json[] {
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
export function createStoredResponses() {
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
