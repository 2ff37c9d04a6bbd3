// Repeated answers (`repeatedText`, docs/detectors.md, "Repeated answers"): in each request's
// history, a run of identical answers in a row fires at `after`, 2 × `after` and 3 × `after`, and
// its reminder goes right after the last answer of the run. Like every wire reminder it is
// remembered once given, and every later request carries it again at the same place.
import { jsonStringify } from '../../intrinsics.ts'
import type { ReminderMessage } from '../../types.ts'
import type { Planned } from '../placements.ts'
import type { InsertionPoint, WireEvent, WireFormatAdapter } from '../types.ts'
import type { Answer } from './answers.ts'
import { repeatedAnswerText } from './answer-text.ts'

// Taken when the engine loads: a page that replaces JSON later cannot steer what we write.
const stringifyJson = jsonStringify

/** When an answer was first seen, and the tokens its response cost (absent when it told none). */
export interface AnswerMark {
  readonly text: string
  readonly at: number
  readonly tokens?: number
}

/** What a wire agent remembers of its answers. */
export interface AnswerMemory {
  /** The reminders given, by the answer they follow (`index`, NUL, `text`). */
  readonly given: Map<string, string>
  /** Each answer by its rank among the answers, as first seen. */
  readonly marks: Map<number, AnswerMark>
}

export const newAnswerMemory = (): AnswerMemory => ({ given: new Map(), marks: new Map() })

/** A repeated-answer reminder that fired in this request. */
export interface FiredAnswer {
  /** The planned insertion's item: `-(rank + 1)`, apart from the conversation's items. */
  readonly item: number
  readonly count: number
  readonly wasteMs: number
  /** Absent when no later answer's response told its usage. */
  readonly wasteTokens?: number
}

interface AnswerInputs {
  readonly answers: readonly Answer[]
  /** `repeatedText.after`; undefined while the key is off (what was given is still carried). */
  readonly after: number | undefined
  readonly place: (at: InsertionPoint) => InsertionPoint | undefined
  readonly adapter: WireFormatAdapter
  /** The response the page read that holds an answer of this text, if one was read. */
  readonly seen: (text: string) => { readonly at: number; readonly tokens?: number } | undefined
  readonly now: number
}

const keyOf = (rank: number, text: string): string => `${rank}\u0000${text}`

/** The reminder value in the format's history: a user entry of its own right after the answer. */
function reminderValue(adapter: WireFormatAdapter, text: string): unknown {
  // Anthropic's reminder item is a content block; after an answer it needs a user message to sit in.
  return adapter.format === 'anthropic' ? { role: 'user', content: [{ type: 'text', text }] } : adapter.reminderItem(text)
}

export function answerReminders(memory: AnswerMemory, { answers, after, place, adapter, seen, now }: AnswerInputs): { planned: Planned[]; fired: FiredAnswer[] } {
  const planned: Planned[] = []
  const fired: FiredAnswer[] = []
  let count = 0
  answers.forEach(({ text, at, afterCall }, rank) => {
    let mark = memory.marks.get(rank)
    if (mark?.text !== text) {
      const read = seen(text)
      mark = { text, at: read?.at ?? now, ...(read?.tokens !== undefined && { tokens: read.tokens }) }
      memory.marks.set(rank, mark)
    }
    count = rank > 0 && !afterCall && answers[rank - 1]!.text === text ? count + 1 : 1
    const key = keyOf(rank, text)
    // Its place may be in a part of the conversation sent before: the provider has that part as it
    // was, so a reminder due there is given nowhere (and never reported).
    const where = place(at)
    if (after !== undefined && (count === after || count === 2 * after || count === 3 * after) && !memory.given.has(key)) {
      memory.given.set(key, repeatedAnswerText(count))
      const first = memory.marks.get(rank - count + 1)!
      let wasteTokens: number | undefined
      for (let later = rank - count + 2; later <= rank; later++) {
        const { tokens } = memory.marks.get(later)!
        if (tokens !== undefined) wasteTokens = (wasteTokens ?? 0) + tokens
      }
      if (where) fired.push({ item: -(rank + 1), count, wasteMs: mark.at > first.at ? mark.at - first.at : 0, ...(wasteTokens !== undefined && { wasteTokens }) })
    }
    const reminder = memory.given.get(key)
    if (where && reminder !== undefined) planned.push({ item: -(rank + 1), at: where, values: [stringifyJson(reminderValue(adapter, reminder))] })
  })
  return { planned, fired }
}

/** The panel's reminder event for a fired answer reminder, inserted at `placement`. */
export function answerEvent(agentId: number, seq: number, { count, wasteMs, wasteTokens }: FiredAnswer, placement: string, at: number): WireEvent {
  const message: ReminderMessage = {
    role: 'user',
    content: [{ type: 'text', text: repeatedAnswerText(count) }],
    source: { kind: 'plugin', plugin: 'repeat-tool-guard', form: 'notice', summary: `same answer × ${count}` },
  }
  return {
    type: 'reminder',
    at,
    agentId,
    seq,
    tool: ANSWER_TOOL,
    count,
    level: 'repeated-text',
    detector: 'repeated-text',
    wasteMs,
    ...(wasteTokens !== undefined && { wasteTokens }),
    message,
    placement,
  }
}

/** What a repeated-answer reminder names as its tool: an answer belongs to no tool. */
export const ANSWER_TOOL = 'answer'
