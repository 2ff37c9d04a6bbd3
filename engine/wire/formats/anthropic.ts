// Anthropic Messages: an assistant message's `tool_use` blocks are answered by `tool_result`
// blocks at the head of the next user message; a reminder is a text block right after them
// (results must come first). Server tools (`server_tool_use`) run at the provider and are not
// the page agent's calls.
import { isReminderPart, isToolName, listOf, resultContent } from '../content.ts'
import { isRecord } from '../../records.ts'
import { asParsed } from '../exact-arguments.ts'
import { createHistory, type ReadCall } from '../history.ts'
import type { JsonObject, WireFormatAdapter } from '../types.ts'

const isToolUse = (block: unknown): block is JsonObject =>
  isRecord(block) && block.type === 'tool_use' && isToolName(block.name)
const isToolResult = (block: unknown): block is JsonObject => isRecord(block) && block.type === 'tool_result'

export const anthropic: WireFormatAdapter = {
  format: 'anthropic',

  matches: (body) => listOf(body.messages).some((m) => isRecord(m) && listOf(m.content).some(isToolUse)),

  walk(body, exact = asParsed) {
    const messages = listOf(body.messages)
    const history = createHistory(body.system)
    let i = 0
    while (i < messages.length) {
      const message = messages[i]
      i += 1
      if (!isRecord(message)) continue
      if (message.role === 'user') history.user(message.content)
      const uses = message.role === 'assistant' ? listOf(message.content).filter(isToolUse) : []
      if (uses.length === 0) continue
      const answer = messages[i]
      const blocks = isRecord(answer) && answer.role === 'user' ? listOf(answer.content) : []
      const results = new Map<unknown, JsonObject>()
      let end = 0
      blocks.forEach((block, index) => {
        if (!isToolResult(block)) return
        results.set(block.tool_use_id, block)
        end = index + 1
      })
      // A call still waiting for its result ends what can be guarded.
      if (!uses.every((use) => results.has(use.id))) break
      const calls = uses.map((use): ReadCall => {
        const result = results.get(use.id)!
        return { id: use.id, name: use.name as string, arguments: exact(use.input), isError: result.is_error === true, content: resultContent(result.content) }
      })
      history.step(calls, { path: ['messages', i, 'content'], index: end }, isReminderPart(blocks[end]))
      // What the user added after the results (text, images) is theirs: it resets the chain.
      history.user(blocks)
      i += 1
    }
    return history.done()
  },

  reminderItem: (text) => ({ type: 'text', text }),
}
