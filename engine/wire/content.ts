// Reading message contents the same way in every format: a string, or a list of parts where the
// text parts carry `text` (`{type:'text'}`, `{type:'input_text'}`, Gemini's untyped `{text}`).
import { headOf } from '../text-head.ts'
import { isGuardReminder } from './reminder-text.ts'
import { isRecord } from '../records.ts'
import { setOf } from '../intrinsics.ts'

/** A tool name the engine accepts: a non-empty string. */
export const isToolName = (value: unknown): value is string => typeof value === 'string' && value !== ''

export const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : [])

const TEXT_TYPES = setOf<unknown>([undefined, 'text', 'input_text'])

/** The text of a text part, or undefined for any other part (images, tool results, files...). */
export function partText(part: unknown): string | undefined {
  return isRecord(part) && typeof part.text === 'string' && TEXT_TYPES.has(part.type) ? part.text : undefined
}

/** Whether a part is a text part holding a guard reminder. */
export function isReminderPart(part: unknown): boolean {
  const text = partText(part)
  return text !== undefined && isGuardReminder(text)
}

/** A tool result riding in a user message: Anthropic's `tool_result` block, Gemini's `functionResponse` part. */
export function isToolResultPart(part: unknown): boolean {
  return isRecord(part) && (part.type === 'tool_result' || isRecord(part.functionResponse))
}

/**
 * A tool result's content as results are compared: a list of text parts is the text the model
 * reads (so JSON in it is compared as data, keys ignored as configured); anything else as it is.
 */
export function resultContent(content: unknown): unknown {
  if (!Array.isArray(content) || content.length === 0) return content
  const texts = content.map(partText)
  return texts.every((text) => text !== undefined) ? texts.join('\n') : content
}

/** Whether a message content is nothing but guard reminders (a reminder string, or reminder parts). */
export function isReminderContent(content: unknown): boolean {
  if (typeof content === 'string') return isGuardReminder(content)
  return Array.isArray(content) && content.length > 0 && content.every(isReminderPart)
}

interface PlainText {
  /** The first characters of the readable text, at most the budget asked for. */
  readonly text: string
  /** The length of the whole readable text. */
  readonly length: number
}

/**
 * The readable text of a content, a system prompt or a Gemini `Content`: strings, `text` fields,
 * and what `content` or `parts` hold, in order. Only the head is kept, so an identity or a label
 * costs the same for a short prompt and for a long one.
 */
export function plainText(value: unknown, budget: number): PlainText {
  const pieces: string[] = []
  let kept = 0
  let length = 0
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      length += node.length
      if (kept < budget) {
        const piece = headOf(node, budget - kept)
        pieces.push(piece)
        kept += piece.length
      }
    } else if (Array.isArray(node)) {
      for (const child of node) visit(child)
    } else if (isRecord(node)) {
      if (typeof node.text === 'string') visit(node.text)
      else if ('content' in node) visit(node.content)
      else visit(node.parts)
    }
  }
  visit(value)
  return { text: pieces.join(' '), length }
}
