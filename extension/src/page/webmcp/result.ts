// A WebMCP tool's result, as the agent gets it: the value the tool's `execute` returned (the browser
// then sends its JSON), or, through `executeTool`, that JSON text. A reminder goes in as one more
// `{ type: 'text', text }` item at the end of its `content` list, in a new result: the page's own
// object, its items and every other field stay as they were.
import { isArray, joined, jsonParse, jsonStringify } from '../../../../engine/intrinsics.ts'
import { isRecord } from '../../../../engine/safe-reading.ts'

/** `value`: what `execute` returned; `json`: the JSON text `executeTool` resolves to. */
export type ResultForm = 'value' | 'json'

/** A result as the guard reads it: the object (parsed from JSON text), and its content list if it has one. */
export interface ReadResult {
  readonly value: unknown
  readonly content: readonly unknown[] | undefined
  /** The MCP convention for a tool that failed without throwing: `isError: true` in its result. */
  readonly isError: boolean
}

export function readResult(result: unknown, form: ResultForm): ReadResult {
  const value = form === 'json' ? parsed(result) : result
  if (!isRecord(value)) return { value, content: undefined, isError: false }
  const content = value.content
  return { value, content: isArray(content) ? content : undefined, isError: value.isError === true }
}

function parsed(text: unknown): unknown {
  if (typeof text !== 'string') return text
  try {
    return jsonParse(text)
  } catch {
    return text
  }
}

/** What the run compares a result by (`resultAware`): its content list, else the whole result. */
export const resultContent = ({ value, content }: ReadResult): unknown => content ?? value

/**
 * The result with `text` as one more content item, in the form the agent gets it; undefined when
 * it has no content list, or when a copy of its own fields would not serialise as it does (a
 * `toJSON` of its own or inherited).
 */
export function withReminder(read: ReadResult, text: string, form: ResultForm): unknown {
  const { value, content } = read
  if (content === undefined || !isRecord(value) || 'toJSON' in value) return undefined
  const result = { ...value, content: joined<unknown>(content, [{ type: 'text', text }]) }
  return form === 'json' ? jsonStringify(result) : result
}

/** What a call that `stopAfter` refused answers, in the form the agent expects: the feedback as an error result. */
export function blockedResult(feedback: string, form: ResultForm): unknown {
  const result = { content: [{ type: 'text', text: feedback }], isError: true }
  return form === 'json' ? jsonStringify(result) : result
}
