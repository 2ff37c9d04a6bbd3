// The OpenAI Chat Completions format of the mock model (mock-llm.ts): its rules and its answers, whole or streamed.
import { argsText, CREATED, type Format, invalid, isObject, type Json, list, type SseEvent, turn2id, words } from './mock-llm-format.ts'

export const openaiChat: Format = {
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
