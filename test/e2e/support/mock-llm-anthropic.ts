// The Anthropic Messages format of the mock model (mock-llm.ts): its rules and its answers, whole or streamed.
import { type Format, invalid, isObject, type Json, list, type SseEvent, turn2id, words } from './mock-llm-format.ts'

export const anthropic: Format = {
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
