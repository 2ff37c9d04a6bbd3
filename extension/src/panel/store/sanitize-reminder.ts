// A reminder's text quotes the arguments of the calls it is about. A sanitized session keeps what
// the guard wrote around them and replaces only the quotes: a detailed reminder keeps its lines
// but `- arguments:`, a gentle one quotes nothing. Any other text (a cycle's, which quotes every
// call of its period, or a text the panel received cut) becomes a stand-in as a whole; a cycle's
// keeps its first two lines, the tools of its period, which the imported session marks it by.
import { reminderMessage } from '../../../../engine/index.ts'
import type { PanelEvent } from '../../protocol/events.ts'
import { isStandIn, type TextSanitizer } from './sanitize-text.ts'

type ReminderEvent = Extract<PanelEvent, { type: 'reminder' }>

/** Stands where the arguments go, to find the text around them. */
const ARGUMENTS = '\u0000arguments\u0000'
const CYCLE_HEADER = 'Repeated cycle of tool calls detected:\n- cycle: '

const engineText = (level: 'gentle' | 'detailed', tool: string, count: number): string =>
  reminderMessage({ level, tool, count, canonicalArguments: ARGUMENTS, argumentsPreviewChars: ARGUMENTS.length }).content[0].text

export function sanitizedReminderText({ level, tool, count, text, textLength }: ReminderEvent, sanitize: TextSanitizer): string {
  if (textLength === undefined && level !== 'cycle') {
    const expected = engineText(level === 'gentle' ? 'gentle' : 'detailed', tool, count)
    const at = expected.indexOf(ARGUMENTS)
    if (at === -1 && text === expected) return text
    const before = expected.slice(0, at)
    const after = expected.slice(at + ARGUMENTS.length)
    if (at !== -1 && text.length >= before.length + after.length && text.startsWith(before) && text.endsWith(after))
      return before + sanitize(text.slice(before.length, text.length - after.length)) + after
  }
  if (level === 'cycle' && text.startsWith(CYCLE_HEADER)) {
    const lines = text.split('\n')
    if (lines.length === 3 && isStandIn(lines[2]!)) return text
    return `${lines[0]}\n${lines[1]}\n${sanitize(text, textLength)}`
  }
  return sanitize(text, textLength)
}
