// One streamed Chat Completions turn of an `openai` SDK agent, as the SDK's docs show it: the text
// and the tool calls put together from their deltas, then the assistant's turn and each call's
// result added to the conversation.
import type OpenAI from 'openai'
import { runTool } from './read-file-tool.ts'

interface StreamedCall {
  id: string
  name: string
  arguments: string
}

/** The streamed turn's text and tool calls; `usage` hears each usage the stream reports. */
export async function readChatStream(
  stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>,
  usage: (usage: OpenAI.CompletionUsage) => void = () => {},
): Promise<{ text: string; calls: StreamedCall[] }> {
  let text = ''
  const calls: StreamedCall[] = []
  for await (const chunk of stream) {
    if (chunk.usage) usage(chunk.usage)
    const delta = chunk.choices[0]?.delta
    text += delta?.content ?? ''
    for (const part of delta?.tool_calls ?? []) {
      const call = (calls[part.index] ??= { id: '', name: '', arguments: '' })
      call.id ||= part.id ?? ''
      call.name += part.function?.name ?? ''
      call.arguments += part.function?.arguments ?? ''
    }
  }
  return { text, calls }
}

/** Adds the assistant's turn that made `calls`, then each call's result (recorded in `results`). */
export function answerCalls(messages: OpenAI.Chat.ChatCompletionMessageParam[], text: string, calls: readonly StreamedCall[], results: string[]): void {
  messages.push({ role: 'assistant', content: text || null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) })
  for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(results, call.name, JSON.parse(call.arguments)) })
}
