// Which wire format a request body is, judged by its shape (never by host: proxies and local
// servers speak these formats too).
import { anthropic } from './formats/anthropic.ts'
import { gemini } from './formats/gemini.ts'
import { openaiChat } from './formats/openai-chat.ts'
import { openaiResponses } from './formats/openai-responses.ts'
import type { JsonObject, WireFormatAdapter } from './types.ts'

const ADAPTERS: readonly WireFormatAdapter[] = [openaiChat, anthropic, openaiResponses, gemini]

/**
 * A body with a tool call in its history holds one of these names, quoted: the test that lets
 * every other JSON request through without parsing it. Without the opening quote (the most common
 * character of JSON) the regex engine skips ahead on the words' own letters, several times faster.
 */
export const TOOL_CALL_MARKER = /(?:tool_calls|tool_use|function_call|custom_tool_call|functionCall)"/

/** The format of a parsed body whose history holds tool calls, if it is one we know. */
export function detectFormat(body: JsonObject): WireFormatAdapter | undefined {
  return ADAPTERS.find((adapter) => adapter.matches(body))
}
