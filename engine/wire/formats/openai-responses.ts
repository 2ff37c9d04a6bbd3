// OpenAI Responses with a stateless `input` list: a step is a run of `function_call` items (other
// non-message items such as `reasoning` may sit between them) answered by the run of
// `function_call_output` items that follows; a reminder is a user message item after that run.
// A request that continues a stored response (`previous_response_id`) holds outputs without their
// calls, so it has no step to guard.
import { isReminderContent, isToolName, listOf, resultContent } from '../content.ts'
import { isRecord } from '../../records.ts'
import { createHistory, type ReadCall } from '../history.ts'
import type { JsonObject, WireFormatAdapter } from '../types.ts'
import { setOf } from '../../intrinsics.ts'

const CALLS: Readonly<Record<string, string>> = { function_call: 'arguments', custom_tool_call: 'input' }
const OUTPUTS = setOf(['function_call_output', 'custom_tool_call_output'])

export const openaiResponses: WireFormatAdapter = {
  format: 'openai-responses',

  matches: (body) => listOf(body.input).some(isCall),

  walk(body) {
    const input = listOf(body.input)
    const system =
      typeof body.instructions === 'string' && body.instructions !== '' ? body.instructions : input.find((item) => isMessage(item) && (item.role === 'system' || item.role === 'developer'))
    const history = createHistory(isMessage(system) ? system.content : system)
    let i = 0
    while (i < input.length) {
      const item = input[i]
      if (isMessage(item) && item.role === 'user') history.user(item.content)
      if (!isCall(item)) {
        i += 1
        continue
      }
      const calls: Omit<ReadCall, 'content'>[] = []
      while (i < input.length && !isMessage(input[i]) && !isOutput(input[i])) {
        const next = input[i] as JsonObject
        if (isCall(next)) calls.push({ id: next.call_id, name: next.name as string, arguments: next[CALLS[next.type as string]!], isError: false })
        i += 1
      }
      const outputs = new Map<unknown, unknown>()
      while (i < input.length && isOutput(input[i])) {
        const output = input[i] as JsonObject
        outputs.set(output.call_id, output.output)
        i += 1
      }
      if (!calls.every((call) => outputs.has(call.id))) break
      const answered = calls.map((call): ReadCall => ({ ...call, content: resultContent(outputs.get(call.id)) }))
      history.step(answered, { path: ['input'], index: i }, isReminderMessage(input[i]))
    }
    return history.done()
  },

  reminderItem: (text) => ({ role: 'user', content: [{ type: 'input_text', text }] }),
}

function isCall(item: unknown): item is JsonObject {
  return isRecord(item) && typeof item.type === 'string' && Object.hasOwn(CALLS, item.type) && isToolName(item.name)
}

function isOutput(item: unknown): boolean {
  return isRecord(item) && OUTPUTS.has(item.type as string)
}

/** A message item: `{type:"message", role, content}` or the short `{role, content}`. */
function isMessage(item: unknown): item is JsonObject {
  return isRecord(item) && typeof item.role === 'string' && (item.type === undefined || item.type === 'message')
}

function isReminderMessage(item: unknown): boolean {
  return isMessage(item) && item.role === 'user' && isReminderContent(item.content)
}
