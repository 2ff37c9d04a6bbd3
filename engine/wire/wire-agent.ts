// A conversation zero-code mode guards, as the wire guard remembers it between requests: the
// engine agent its calls go to, and what of its history was already observed.
import { freeze } from '../intrinsics.ts'
import type { AnswerMemory } from './answers/repeated-answers.ts'
import { conversationLabel } from './identity.ts'
import type { Conversation, ConversationItem, WireFormat, WireFormatAdapter } from './types.ts'

/** One observed prompt or step, and the reminders inserted after it (a prompt has none). */
export interface SeenItem {
  readonly key: string
  readonly reminders: readonly string[]
}

export interface WireAgent {
  readonly kind: 'wire'
  readonly id: number
  readonly format: WireFormat
  readonly label: string
  /** The engine's agent object; a new one when the conversation's history forks. */
  engineAgent: object
  /**
   * The engine's id for `engineAgent`, learnt when the engine first observes one of its calls;
   * undefined until then (its chain is still empty).
   */
  engineId: number | undefined
  readonly seen: SeenItem[]
  /** The last call number handed out: stays increasing across forks. */
  seq: number
  /**
   * The page started putting guard reminders in this history itself: from then on it is the
   * page's agent, and only what was already inserted is repeated (the provider saw it).
   */
  handedOver: boolean
  /**
   * The panel was told of it (its `agent` event): with its first completed call, which a server's
   * stream may bring later than the request that made the agent known.
   */
  announced: boolean
  /** Its answers and the repeated-answer reminders given, once `repeatedText` was on for it. */
  answers?: AnswerMemory
}

/** A conversation of the page's own agent: nothing to do, and nothing to show twice. */
export const PAGES_OWN = /* @__PURE__ */ freeze({ kind: 'hook' as const })

/** What the wire guard remembers of a conversation. */
export type Known = WireAgent | typeof PAGES_OWN

export type Step = Extract<ConversationItem, { kind: 'step' }>

const PROMPT_KEY = '\u0000prompt'

export const newWireAgent = (id: number, adapter: WireFormatAdapter, conversation: Conversation): WireAgent => newLiveAgent(id, adapter.format, conversationLabel(adapter.format, conversation))

/**
 * An agent of `format` named `label`: a live session's, whose conversation is on the provider, is
 * labelled by the session itself; a request's by its conversation (newWireAgent).
 */
export function newLiveAgent(id: number, format: WireFormat, label: string): WireAgent {
  return { kind: 'wire', id, format, label, engineAgent: { name: label }, engineId: undefined, seen: [], seq: 0, handedOver: false, announced: false }
}

/** Tells an item apart from the one seen at its place in an earlier request. */
export function keyOf(item: ConversationItem): string {
  return item.kind === 'prompt' ? PROMPT_KEY : item.key
}
