// The walk the message formats share (Anthropic, OpenAI Chat, Gemini): their conversation is a
// list of entries in which an entry of the model's tool calls is answered by the entries right
// after it. Each format says which entries are the user's, which calls an entry makes and how the
// next entries answer them; the walk pairs them up in order and stops at the first call still
// waiting for its result.
import { isRecord } from '../records.ts'
import { listOf } from './content.ts'
import { asParsed, type ExactArguments } from './exact-arguments.ts'
import { createHistory, type ReadCall } from './history.ts'
import type { Conversation, InsertionPoint, JsonObject } from './types.ts'

/** How the entries after a step's calls answer them. */
export interface Answer {
  /** The calls, each with its result. */
  readonly calls: readonly ReadCall[]
  /** Where the step's reminders go, and whether the page already put one there. */
  readonly at: InsertionPoint
  readonly guarded: boolean
  /** The index of the first entry after the answer. */
  readonly next: number
  /** What the answering entry holds beside the results (the user's own, if any); undefined for none. */
  readonly userContent?: unknown
}

/** One format's layout of a conversation, for the shared walk. */
export interface ConversationLayout<Call> {
  /** The body's field that holds the entries. */
  readonly entries: string
  /** The system prompt, as the body holds it. */
  system(body: JsonObject, entries: readonly unknown[]): unknown
  /** The conversation's own id, where the format names one. */
  id?(body: JsonObject): string | undefined
  /** The user's content of an entry (a prompt, or results and text); undefined when it is not the user's. */
  userContent(entry: JsonObject): unknown
  /** The tool calls an entry makes; empty for none. */
  calls(entry: JsonObject): readonly Call[]
  /** The calls paired with the results in the entries from `next` on; undefined when one has none. */
  answer(entries: readonly unknown[], next: number, calls: readonly Call[], exact: ExactArguments): Answer | undefined
}

export function walkConversation<Call>(layout: ConversationLayout<Call>, body: JsonObject, exact: ExactArguments = asParsed): Conversation {
  const entries = listOf(body[layout.entries])
  const history = createHistory(layout.system(body, entries), layout.id?.(body))
  let i = 0
  while (i < entries.length) {
    const entry = entries[i]
    i += 1
    if (!isRecord(entry)) continue
    const own = layout.userContent(entry)
    if (own !== undefined) history.user(own)
    const calls = layout.calls(entry)
    if (calls.length === 0) continue
    const answer = layout.answer(entries, i, calls, exact)
    // A call still waiting for its result ends what can be guarded.
    if (!answer) break
    history.step(answer.calls, answer.at, answer.guarded)
    // What the user added after the results (text, images) is theirs: it resets the chain.
    if (answer.userContent !== undefined) history.user(answer.userContent)
    i = answer.next
  }
  return history.done()
}
