// Anthropic Messages: an assistant message's `tool_use` blocks are answered by `tool_result`
// blocks at the head of the next user message; a reminder is a text block right after them
// (results must come first). Server tools (`server_tool_use`) run at the provider and are not
// the page agent's calls.
import { isReminderPart, isToolName, listOf, resultContent } from '../content.ts'
import { isRecord } from '../../records.ts'
import { walkConversation, type ConversationLayout } from '../conversation-walk.ts'
import type { ReadCall } from '../history.ts'
import type { JsonObject, WireFormatAdapter } from '../types.ts'

const isToolUse = (block: unknown): block is JsonObject => isRecord(block) && block.type === 'tool_use' && isToolName(block.name)
const isToolResult = (block: unknown): block is JsonObject => isRecord(block) && block.type === 'tool_result'

const messages: ConversationLayout<JsonObject> = {
  entries: 'messages',
  system: (body) => body.system,
  userContent: (message) => (message.role === 'user' ? message.content : undefined),
  calls: (message) => (message.role === 'assistant' ? listOf(message.content).filter(isToolUse) : []),
  answer(entries, next, uses, exact) {
    const answer = entries[next]
    const blocks = isRecord(answer) && answer.role === 'user' ? listOf(answer.content) : []
    const results = new Map<unknown, JsonObject>()
    let end = 0
    blocks.forEach((block, index) => {
      if (!isToolResult(block)) return
      results.set(block.tool_use_id, block)
      end = index + 1
    })
    if (!uses.every((use) => results.has(use.id))) return undefined
    const calls = uses.map((use): ReadCall => {
      const result = results.get(use.id)!
      return { id: use.id, name: use.name as string, arguments: exact(use.input), isError: result.is_error === true, content: resultContent(result.content) }
    })
    return { calls, at: { path: ['messages', next, 'content'], index: end }, guarded: isReminderPart(blocks[end]), next: next + 1, userContent: blocks }
  },
}

export const anthropic: WireFormatAdapter = {
  format: 'anthropic',

  matches: (body) => listOf(body.messages).some((m) => isRecord(m) && listOf(m.content).some(isToolUse)),

  walk: (body, exact) => walkConversation(messages, body, exact),

  reminderItem: (text) => ({ type: 'text', text }),
}
