// Responses as the four APIs send them, whole (JSON) or streamed (server-sent events), each with
// the usage the API reports: what the waste tests read as the page would. One tool call each, with
// the id the conversation builders give call `n` (Gemini's calls carry none), or an answer.
import type { BUILDERS } from '../../../fixtures/wire/conversations.ts'

export type Format = keyof typeof BUILDERS

export interface Made {
  /** The call's number in the conversation, from 1; or the answer's text. */
  readonly call?: number
  readonly answer?: string
  readonly name?: string
  readonly args?: Readonly<Record<string, unknown>>
  readonly input: number
  readonly output: number
}

const sse = (events: readonly unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')

function chat({ call, answer, name, args, input, output }: Made, stream: boolean): string {
  const toolCalls = call === undefined ? undefined : [{ id: `call_${call}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }]
  const usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output }
  if (!stream)
    return JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: answer ?? null, tool_calls: toolCalls }, finish_reason: 'stop' }],
      usage,
    })
  const delta = toolCalls ? { role: 'assistant', tool_calls: toolCalls.map((c, index) => ({ index, ...c })) } : { role: 'assistant', content: answer }
  return `${sse([
    { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta }] },
    { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage },
  ])}data: [DONE]\n\n`
}

function responses({ call, answer, name, args, input, output }: Made, stream: boolean): string {
  const item =
    call === undefined
      ? { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer, annotations: [] }] }
      : { type: 'function_call', id: `fc_${call}`, call_id: `call_${call}`, name, arguments: JSON.stringify(args), status: 'completed' }
  const response = { id: 'resp_1', object: 'response', status: 'completed', output: [item], usage: { input_tokens: input, output_tokens: output, total_tokens: input + output } }
  if (!stream) return JSON.stringify(response)
  return sse([
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response },
  ])
}

function anthropic({ call, answer, name, args, input, output }: Made, stream: boolean): string {
  const block = call === undefined ? { type: 'text', text: answer } : { type: 'tool_use', id: `toolu_${call}`, name, input: args }
  if (!stream) return JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [block], stop_reason: 'end_turn', usage: { input_tokens: input, output_tokens: output } })
  const started = call === undefined ? { type: 'text', text: '' } : { ...block, input: {} }
  const delta = call === undefined ? { type: 'text_delta', text: answer } : { type: 'input_json_delta', partial_json: JSON.stringify(args) }
  return sse([
    { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: input, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: started },
    { type: 'content_block_delta', index: 0, delta },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: output } },
    { type: 'message_stop' },
  ])
}

function gemini({ call, answer, name, args, input, output }: Made, stream: boolean): string {
  const part = call === undefined ? { text: answer } : { functionCall: { name, args } }
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP' }],
    usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output },
  }
  return stream ? sse([chunk]) : JSON.stringify(chunk)
}

export const RESPONSES: Readonly<Record<Format, (made: Made, stream: boolean) => string>> = { 'openai-chat': chat, 'openai-responses': responses, anthropic, gemini }
