import type { GuardEvent } from '../types.ts'
import type { ExactArguments } from './exact-arguments.ts'

/**
 * The request formats zero-code mode understands, recognised by the shape of the body: the four
 * LLM APIs, and the two agent protocols whose tool loop runs on a server that streams it to the
 * page (docs/zero-code.md, "Agents whose loop runs on the server"): the AI SDK's UI messages
 * (`useChat`) and AG-UI's `RunAgentInput`; and the two realtime protocols, whose sessions are read
 * from the messages of a connection rather than from requests (docs/zero-code.md, "Realtime sessions").
 */
export const WIRE_FORMATS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'ai-sdk-ui', 'ag-ui', 'openai-realtime', 'gemini-live'] as const
export type WireFormat = (typeof WIRE_FORMATS)[number]

/** A JSON object as `JSON.parse` hands it out. */
export type JsonObject = Readonly<Record<string, unknown>>

/** One tool call of a request's history whose result is in the history too. */
export interface WireCall {
  readonly name: string
  /** As the body holds them: a JSON string (OpenAI) or an object (Anthropic, Gemini). */
  readonly arguments: unknown
  readonly isError: boolean
  /** The call's result as the history holds it, for the result-aware detector; undefined when it has none. */
  readonly content?: unknown
  /** The call's id, where the format gives one: how the response that made it is found. */
  readonly id?: string
}

/** A place in the body: before element `index` of the array found at `path` from the root. */
export interface InsertionPoint {
  readonly path: readonly (string | number)[]
  readonly index: number
}

export type ConversationItem =
  /** A real user message (not a tool result, not a guard reminder): the chain starts over. */
  | { readonly kind: 'prompt' }
  /** One model turn's tool calls, in the order they were issued, with all their results. */
  | {
      readonly kind: 'step'
      readonly calls: readonly WireCall[]
      /** Tells this step apart across requests: its call ids, or names and arguments without ids. */
      readonly key: string
      /** Where this step's reminders go: right after its results. */
      readonly at: InsertionPoint
      /** The page's own history already holds a guard reminder at `at`. */
      readonly guarded: boolean
      /** The id of its last call, where the format gives one: what its reminders' own ids derive from. */
      readonly anchor?: string
    }

/** What one request body says about its conversation. */
export interface Conversation {
  /** The system prompt and the first user message, as the body holds them: who this agent is. */
  readonly system: unknown
  readonly firstPrompt: unknown
  /** Real user messages and completed steps, in order, up to the first step still missing a result. */
  readonly items: readonly ConversationItem[]
  /** A user message of the history is a guard reminder: the page's agent guards itself. */
  readonly carriesReminders: boolean
  /**
   * The conversation's own id, where the format names one (the AI SDK's chat id, AG-UI's thread):
   * then it, not the prompts, tells who the agent is.
   */
  readonly id?: string
}

/** Which reminder a format's reminder item is: formats whose messages carry ids derive theirs from it. */
export interface ReminderPlace {
  /** The step's anchor (the id of its last call), else its place among the conversation's items. */
  readonly anchor: string
  /** The reminder's rank among those after that step, from 0. */
  readonly index: number
}

/** One wire format: how to read its history and what a reminder looks like in it. */
export interface WireFormatAdapter {
  readonly format: WireFormat
  /** Whether a parsed request body is this format with tool calls in its history. */
  matches(body: JsonObject): boolean
  /**
   * The body's conversation. `exact` hands on an arguments object that sits inside the body as its
   * own JSON text when its numbers may have lost digits (exact-arguments.ts).
   */
  walk(body: JsonObject, exact?: ExactArguments): Conversation
  /**
   * The value that carries one reminder at this format's legal place. `place` says which reminder
   * it is, the same in every request, for formats whose messages carry an id.
   */
  reminderItem(text: string, place?: ReminderPlace): unknown
}

type Variant<T extends GuardEvent['type']> = Extract<GuardEvent, { readonly type: T }>

/**
 * What zero-code mode reports. The chain events are the engine's own, with `agentId` and `seq`
 * renumbered per conversation (a conversation is one wire agent).
 */
export type WireEvent =
  | {
      /** A conversation seen for the first time with a completed tool call, not the page's own agent. */
      readonly type: 'agent'
      readonly at: number
      readonly agentId: number
      readonly format: WireFormat
      readonly label: string
    }
  | Variant<'call'>
  | Variant<'chain-reset'>
  | (Variant<'blocked'> & {
      /** With `wasteMs`: the tokens of the responses that made the run's calls after the first (docs/detectors.md, "Waste"). */
      readonly wasteTokens?: number
      /**
       * Always true: the model already made the call, so `stopAfter` only says it would have
       * blocked it; the request carries nothing more than the reminders.
       */
      readonly wouldBlock: true
    })
  | (Variant<'reminder'> & {
      /** With `wasteMs`: the tokens of the responses that made the run's calls after the first (docs/detectors.md, "Waste"). */
      readonly wasteTokens?: number
      /** Where in the rewritten body the reminder was inserted, e.g. `messages[7]`. */
      readonly placement: string
      /**
       * Due inside a loop that runs on the server, read from its event stream: nothing can put it
       * in front of the model from the page, so nothing was inserted (a would-remind).
       */
      readonly serverLoop?: true
    })
  | {
      readonly type: 'request'
      readonly at: number
      readonly agentId: number
      readonly format: WireFormat
      /** Completed tool calls in the request's history. */
      readonly calls: number
      readonly remindersInserted: number
      readonly rewritten: boolean
    }

/** A wire agent as it stands: its chain, for a panel that needs the whole state again. */
export interface WireAgentState {
  readonly agentId: number
  readonly format: WireFormat
  readonly label: string
  /** The tool of the current run, absent before the first tracked call. */
  readonly tool?: string
  readonly canonicalArguments?: string
  readonly count: number
  readonly nextThreshold: number | null
}

/** The outcome of inspecting one request of a wire agent. */
export interface WireInspection {
  readonly format: WireFormat
  /** The body with the reminders spliced in; absent when nothing was inserted. */
  readonly body?: string
  readonly events: readonly WireEvent[]
}

/** The agent event streams a server's tool loop is read from, as the page reads them. */
export const AGENT_STREAM_PROTOCOLS = ['ui-message-stream', 'ag-ui'] as const
export type AgentStreamProtocol = (typeof AGENT_STREAM_PROTOCOLS)[number]

/**
 * One response of an agent event stream, read as the page reads it: each piece of its text is
 * handed on as it passes, and the events it completes come back at once.
 */
export interface AgentStreamReading {
  /** The next piece of the body's text (any split); the events of what it completed. */
  push(text: string): readonly WireEvent[]
  /**
   * The body ended: `cut` when the page cancelled it (or it failed) before its end. The run read
   * so far ends there; the events of anything still buffered.
   */
  end(cut: boolean): readonly WireEvent[]
}
