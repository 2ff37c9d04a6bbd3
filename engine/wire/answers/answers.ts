// The model's answers in a request's history (docs/zero-code.md, "Repeated answers"): its turns of
// text with no tool call, each with the place right after it, where a repeated-answer reminder
// goes. Read only while `repeatedText` is on, for the four LLM formats.
import { isRecord } from '../../records.ts'
import { setOf } from '../../intrinsics.ts'
import { listOf } from '../content.ts'
import type { InsertionPoint, JsonObject, WireFormat } from '../types.ts'

export interface Answer {
  readonly text: string
  /** Right after the answer's entry: where its reminder goes. */
  readonly at: InsertionPoint
  /** A model turn with a tool call came between this answer and the one before: a run starts over. */
  readonly afterCall: boolean
}

/** One format's model turns: whether an entry is the model's, its tool calls, its text. */
interface AnswerLayout {
  readonly entries: string
  isModel(entry: JsonObject, entries: readonly unknown[], index: number): boolean
  callsTools(entry: JsonObject): boolean
  parts(entry: JsonObject): unknown
}

const TEXT_PARTS = setOf<unknown>([undefined, 'text', 'output_text'])

/** The text of a content: a string, or its text parts joined (Gemini's thoughts left out). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  return listOf(content)
    .map((part) => (isRecord(part) && typeof part.text === 'string' && TEXT_PARTS.has(part.type) && part.thought !== true ? part.text : ''))
    .join('')
}

const RESPONSES_CALLS = setOf<unknown>(['function_call', 'custom_tool_call'])
const isResponsesCall = (item: unknown): boolean => isRecord(item) && RESPONSES_CALLS.has(item.type)

const LAYOUTS: Partial<Record<WireFormat, AnswerLayout>> = {
  'openai-chat': {
    entries: 'messages',
    isModel: (message) => message.role === 'assistant',
    callsTools: (message) => listOf(message.tool_calls).length > 0,
    parts: (message) => message.content,
  },
  anthropic: {
    entries: 'messages',
    isModel: (message) => message.role === 'assistant',
    callsTools: (message) => listOf(message.content).some((block) => isRecord(block) && block.type === 'tool_use'),
    parts: (message) => message.content,
  },
  gemini: {
    entries: 'contents',
    isModel: (content) => content.role === 'model',
    callsTools: (content) => listOf(content.parts).some((part) => isRecord(part) && isRecord(part.functionCall)),
    parts: (content) => content.parts,
  },
  'openai-responses': {
    entries: 'input',
    // A call item is a model turn; an assistant message is one unless calls of its turn follow it
    // (past its reasoning items), which makes it a turn that calls tools.
    isModel: (item, items, index) => isResponsesCall(item) || (item.role === 'assistant' && (item.type === undefined || item.type === 'message') && !callFollows(items, index)),
    callsTools: isResponsesCall,
    parts: (item) => item.content,
  },
}

function callFollows(items: readonly unknown[], index: number): boolean {
  let next = index + 1
  while (isRecord(items[next]) && (items[next] as JsonObject).type === 'reasoning') next += 1
  return isResponsesCall(items[next])
}

/** The answers of a request body of `format`, in order; none for a format without answers. */
export function answersOf(format: WireFormat, body: JsonObject): Answer[] {
  const layout = LAYOUTS[format]
  if (!layout) return []
  const entries = listOf(body[layout.entries])
  const answers: Answer[] = []
  let afterCall = false
  entries.forEach((entry, index) => {
    if (!isRecord(entry) || !layout.isModel(entry, entries, index)) return
    if (layout.callsTools(entry)) {
      afterCall = true
      return
    }
    const text = textOf(layout.parts(entry))
    if (text === '') return
    answers.push({ text, at: { path: [layout.entries], index: index + 1 }, afterCall })
    afterCall = false
  })
  return answers
}
