// What the error-run reminder quotes of the last error: the result's content as the model read
// it. Text as it came; a list of content parts (`[{ type: 'text', text }]`, as MCP tools answer)
// as its texts joined with line breaks, any other part in canonical form; anything else canonical.
import { canonicalArguments } from '../canonical.ts'
import { isArray } from '../intrinsics.ts'
import { isRecord } from '../records.ts'
import type { ToolResult } from '../types.ts'

/** The text of a result's content; a page object whose getters throw is written as canonical.ts writes it. */
export function contentText(result: ToolResult | null | undefined): string {
  let content: unknown
  try {
    content = result?.content
    if (typeof content === 'string') return content
    if (isArray(content)) return partsText(content)
  } catch {
    // A getter threw while the parts were read: the canonical form names what could not be read.
  }
  return content === undefined ? '' : canonicalArguments(content)
}

function partsText(parts: readonly unknown[]): string {
  let text = ''
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]
    const partText = isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : canonicalArguments(part)
    text = i === 0 ? partText : `${text}\n${partText}`
  }
  return text
}
