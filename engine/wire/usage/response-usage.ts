// One LLM response read as the page reads it, for the waste a loop costs (docs/zero-code.md,
// "Waste"): the tokens the model spent on it, from its `usage` (Chat Completions and Responses
// `total_tokens`, Anthropic `input_tokens + output_tokens`, Gemini `usageMetadata.totalTokenCount`),
// the tool calls it made, and its answer when it made none. The text is a JSON response (a JSON
// array of them: Gemini's stream without `alt=sse`) or server-sent events whose data are the
// stream's chunks; for a stream the last usage told wins (the final chunk's).
import { jsonParse, setOf } from '../../intrinsics.ts'
import { isRecord } from '../../records.ts'
import { listOf } from '../content.ts'
import { createSseEvents, type SseEvents } from '../sse-events.ts'
import type { JsonObject } from '../types.ts'
import { callKey } from './call-key.ts'

// Taken when the engine loads: a page that replaces JSON later cannot steer what we read.
const parseJson = jsonParse

/** What a response said that waste needs. */
export interface ResponseUsage {
  /** Absent when the response told no usage: no tokens are known, which is not zero tokens. */
  readonly tokens?: number
  /** The keys of its tool calls (call-key.ts). */
  readonly calls: readonly string[]
  /** Its text, when it called no tool: an answer. */
  readonly answer?: string
}

export interface UsageReader {
  /** The next piece of the text; false once no more is read (past `maxChars`). */
  push(text: string): boolean
  /** What the text read said; undefined when it was too long or said nothing of use. */
  end(): ResponseUsage | undefined
}

const CALL_ITEMS = setOf<unknown>(['function_call', 'custom_tool_call'])
const TEXT_PARTS = setOf<unknown>([undefined, 'text', 'output_text'])
const count = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0)

export function createUsageReader(maxChars: number): UsageReader {
  let mode: 'json' | 'events' | undefined
  let json = ''
  let chars = 0
  let tooLong = false
  let total: number | undefined
  /** Whether any usage field was read. */
  let told = false
  let input = 0
  let output = 0
  const calls: string[] = []
  let text = ''
  let events: SseEvents | undefined

  function usage(value: unknown): void {
    if (!isRecord(value)) return
    told ||= typeof value.total_tokens === 'number' || typeof value.input_tokens === 'number' || typeof value.output_tokens === 'number'
    if (typeof value.total_tokens === 'number') total = count(value.total_tokens)
    // Anthropic: `message_start` tells both, each `message_delta` the output so far (and the input, lately).
    if (typeof value.input_tokens === 'number') input = count(value.input_tokens)
    if (typeof value.output_tokens === 'number') output = count(value.output_tokens)
  }

  function textOf(parts: unknown): string {
    return listOf(parts)
      .map((part) => (isRecord(part) && typeof part.text === 'string' && TEXT_PARTS.has(part.type) && part.thought !== true ? part.text : ''))
      .join('')
  }

  function item(value: unknown): void {
    if (!isRecord(value)) return
    if (CALL_ITEMS.has(value.type)) calls.push(callKey(value.call_id, value.name, value.arguments))
    else if (value.type === 'tool_use') calls.push(callKey(value.id, value.name, value.input))
    else if (value.type === 'message' && value.role === 'assistant') text += textOf(value.content)
    else if (value.type === 'text' && typeof value.text === 'string') text += value.text
  }

  function chunk(value: unknown): void {
    if (Array.isArray(value)) {
      value.forEach(chunk)
      return
    }
    if (!isRecord(value)) return
    usage(value.usage)
    // Responses: the whole response (JSON, or `response.completed`); an item done in a stream is in it too.
    const response: JsonObject | undefined = isRecord(value.response) ? value.response : value.object === 'response' ? value : undefined
    if (response) {
      usage(response.usage)
      if (response.status === 'completed' || response.status === 'incomplete') for (const out of listOf(response.output)) item(out)
    }
    // Anthropic: the message (JSON, or `message_start`), a block started, a text delta.
    if (isRecord(value.message)) usage(value.message.usage)
    if (value.type === 'message') for (const block of listOf(value.content)) item(block)
    if (value.type === 'content_block_start') item(value.content_block)
    if (value.type === 'content_block_delta' && isRecord(value.delta) && typeof value.delta.text === 'string') text += value.delta.text
    // Chat Completions: the choice's message, or its delta.
    for (const choice of listOf(value.choices)) {
      if (!isRecord(choice)) continue
      const said = isRecord(choice.message) ? choice.message : isRecord(choice.delta) ? choice.delta : undefined
      if (!said) continue
      for (const call of listOf(said.tool_calls)) if (isRecord(call) && typeof call.id === 'string') calls.push(callKey(call.id, undefined, undefined))
      if (typeof said.content === 'string') text += said.content
    }
    // Gemini: each chunk's parts, and its usage so far.
    if (isRecord(value.usageMetadata) && typeof value.usageMetadata.totalTokenCount === 'number') {
      told = true
      total = count(value.usageMetadata.totalTokenCount)
    }
    const candidate = listOf(value.candidates)[0]
    if (isRecord(candidate) && isRecord(candidate.content)) {
      for (const part of listOf(candidate.content.parts)) {
        if (isRecord(part) && isRecord(part.functionCall)) calls.push(callKey(part.functionCall.id, part.functionCall.name, part.functionCall.args))
      }
      text += textOf(candidate.content.parts)
    }
  }

  function parsed(data: string): void {
    if (data === '[DONE]') return
    try {
      chunk(parseJson(data))
    } catch {
      // A chunk that is no JSON says nothing here.
    }
  }

  return {
    push(piece) {
      if (tooLong) return false
      chars += piece.length
      if (chars > maxChars) {
        tooLong = true
        return false
      }
      if (mode === undefined) {
        const start = piece.trimStart()
        if (start === '') return true
        mode = start[0] === '{' || start[0] === '[' ? 'json' : 'events'
        if (mode === 'events') events = createSseEvents(parsed)
      }
      if (mode === 'json') json += piece
      else events!.push(piece)
      return true
    },
    end() {
      if (tooLong || mode === undefined) return undefined
      if (mode === 'json') parsed(json)
      else events!.push('\n\n')
      return { ...(told && { tokens: total ?? input + output }), calls, ...(calls.length === 0 && text !== '' ? { answer: text } : {}) }
    },
  }
}
