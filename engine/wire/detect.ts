// Which wire format a request body is, judged by its shape (never by host: proxies and local
// servers speak these formats too).
import { agUi } from './formats/ag-ui.ts'
import { aiSdkUi } from './formats/ai-sdk-ui.ts'
import { anthropic } from './formats/anthropic.ts'
import { gemini } from './formats/gemini.ts'
import { openaiChat } from './formats/openai-chat.ts'
import { openaiResponses } from './formats/openai-responses.ts'
import type { JsonObject, WireFormatAdapter } from './types.ts'

// AG-UI's messages are OpenAI Chat's in camelCase, `role: "tool"` included: its own shape (a
// thread and a run) is asked for first.
const ADAPTERS: readonly WireFormatAdapter[] = [agUi, aiSdkUi, openaiChat, anthropic, openaiResponses, gemini]

/**
 * A body with a tool call in its history holds one of these names, quoted. Without the opening
 * quote (the most common character of JSON) the regex engine skips ahead on the words' own
 * letters, several times faster.
 */
export const TOOL_CALL_MARKER = /(?:tool_calls|tool_use|function_call|custom_tool_call|functionCall|toolCallId)"/

/**
 * Every marker holds one of these, and each starts with a character rare in JSON text, which a
 * plain substring search finds at memory speed. In Chromium they rule out most large bodies two
 * to four times faster than the regex; and in a page that had sent many requests, the regex took
 * about 250 µs over a 381 KB body (35 µs when timed alone) where these stayed near 10 µs.
 */
export const MARKER_HINTS = ['_call', '_use"', 'nCall"', 'CallId"'] as const
// By index, not destructured: this module may first run after a page replaced the array iterator.
const UNDERSCORE_CALL = MARKER_HINTS[0]
const UNDERSCORE_USE = MARKER_HINTS[1]
const N_CALL = MARKER_HINTS[2]
const CALL_ID = MARKER_HINTS[3]

/**
 * Whether a request body may hold a tool call in its history: the test that lets every other JSON
 * request through without parsing it. Only a body with a hint in it is scanned by the regex. The
 * hints are asked for in two pairs, each behind a search for what its pair shares (`_`, `Call`):
 * a body without it is ruled out by one search instead of two, and in a body of prose, where the
 * first letter of `nCall"` and `CallId"` stops the search at every word, without `Call` neither is
 * searched.
 */
export function mayHoldToolCall(text: string): boolean {
  const hinted = (text.includes('_') && (text.includes(UNDERSCORE_CALL) || text.includes(UNDERSCORE_USE))) || (text.includes('Call') && (text.includes(N_CALL) || text.includes(CALL_ID)))
  return hinted && TOOL_CALL_MARKER.test(text)
}

/** The format of a parsed body whose history holds tool calls, if it is one we know. */
export function detectFormat(body: JsonObject): WireFormatAdapter | undefined {
  return ADAPTERS.find((adapter) => adapter.matches(body))
}
