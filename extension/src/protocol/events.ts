// The panel events that travel page -> content -> background -> panel (and that the
// playground's inline panel consumes directly). Built from engine events by `from-engine.ts`
// and from wire interception by the page's fetch interceptor. Named for the reader they are made
// for, the panel (the hops before it check and forward them); the engine's own events are
// `GuardEvent`s (docs/architecture.md, "The message protocol").
import type { ChainResetReason, DetectorName, GuardConfig, ReminderLevel } from '../../../engine/index.ts'
import type { WireFormat } from '../../../engine/wire/index.ts'

export const PROTOCOL_VERSION = 1

/**
 * `hook`: an agent that calls `window.__REPEAT_TOOL_GUARD__`; `wire`: a conversation seen in LLM
 * requests; `webmcp`: the calls of the tools the frame registered through WebMCP.
 */
export const AGENT_KINDS = ['hook', 'wire', 'webmcp'] as const
type AgentKind = (typeof AGENT_KINDS)[number]

/**
 * How the guard reached an agent that never called its page API (docs/zero-code.md, "Reach"): the page's
 * `fetch`, its `XMLHttpRequest`, OpenAI Responses continued with `previous_response_id` (read from
 * the responses), WebMCP tools, the requests posted to WebLLM's worker, or the agent event stream a
 * server's tool loop sends the page: the AI SDK's UI message stream (`ui-stream`) or AG-UI's events;
 * or the messages of a realtime session: OpenAI Realtime over a WebSocket (`realtime-ws`) or over
 * a WebRTC data channel (`realtime-webrtc`), Gemini Live over a WebSocket (`gemini-live`).
 */
export const AGENT_REACHES = ['fetch', 'xhr', 'responses-stateful', 'webmcp', 'webllm', 'ui-stream', 'ag-ui', 'realtime-ws', 'realtime-webrtc', 'gemini-live'] as const
export type AgentReach = (typeof AGENT_REACHES)[number]

/** Agent ids are unique per page: `hook:<engine id>`, `wire:<wire id>` or `webmcp:<n>`. */
export type AgentId = string

export interface AgentDescriptor {
  readonly id: AgentId
  readonly kind: AgentKind
  readonly label: string
  readonly parentId?: AgentId
  /** Wire agents only: the request format their conversation uses. */
  readonly format?: WireFormat
  /** Agents the page did not report itself: how the guard reached them. */
  readonly reach?: AgentReach
}

export interface AgentState extends AgentDescriptor {
  readonly tool?: string
  readonly args?: string
  readonly count: number
  readonly nextThreshold: number | null
}

/** Size caps applied before anything leaves the page; validators enforce the same caps. */
export const LIMITS = {
  toolName: 256,
  label: 200,
  /** Canonical arguments carried to the panel; `argsLength` keeps the true length. */
  args: 4_000,
  /** A result-aware call's result, as its run compares it; `resultLength` keeps the true length. */
  result: 4_000,
  text: 65_536,
  url: 2_048,
  eventsPerBatch: 2_000,
  batchBytes: 4 * 1024 * 1024,
} as const

/**
 * Why zero-code mode sent an LLM request as the page made it although it analysed it: the
 * origin is set to observe, or the reminders would push a keep-alive body past the 64 KB the
 * browser allows; why a WebMCP tool's result went back without its reminder: `no-content`,
 * the result has no `content` list to add it to (the tool threw, or returned something else); and
 * why a reminder read from an agent event stream was only shown: `server-loop`, it fell due inside
 * the server's own loop, which no request of the page's enters (reminders only, never requests).
 */
export const WITHHELD_REASONS = ['observe', 'keepalive-limit', 'no-content', 'server-loop'] as const
export type Withheld = (typeof WITHHELD_REASONS)[number]

export type PanelEvent =
  | { readonly type: 'agent'; readonly at: number; readonly agent: AgentDescriptor }
  | {
      readonly type: 'call'
      readonly at: number
      readonly agentId: AgentId
      readonly seq: number
      readonly tool: string
      /** Canonical arguments, cut at `LIMITS.args`. */
      readonly args: string
      readonly argsLength: number
      readonly tracked: boolean
      readonly denied: boolean
      readonly isError: boolean
      readonly count: number
      readonly nextThreshold: number | null
      /** Only when the call's tool is result-aware: its result as the run compares it, cut at `LIMITS.result`. */
      readonly result?: string
      /** The true length of the result, present only when it was cut. */
      readonly resultLength?: number
    }
  | {
      readonly type: 'reset'
      readonly at: number
      readonly agentId: AgentId
      readonly reason: ChainResetReason
      readonly previousCount: number
    }
  | {
      readonly type: 'reminder'
      readonly at: number
      readonly agentId: AgentId
      /** The call (by `seq`) whose result the reminder follows. */
      readonly seq: number
      readonly tool: string
      readonly count: number
      readonly level: ReminderLevel
      /** Present whenever the page's config turns an opt-in detector on. */
      readonly detector?: DetectorName
      /** Exactly what the model sees, cut at `LIMITS.text`. */
      readonly text: string
      /** The true length of the text, present only when it was cut. */
      readonly textLength?: number
      /** With `detector`: milliseconds from the first call of the run that fired to the call that fired it. */
      readonly wasteMs?: number
      /**
       * Wire agents, with `detector`: the tokens the model spent on the responses that made the
       * run's calls after the first, from each response's `usage` (docs/detectors.md, "Waste").
       */
      readonly wasteTokens?: number
      /** Wire agents: where in the request body it was inserted, e.g. `messages[7]`. */
      readonly placement?: string
      /** Wire agents: present when it was not inserted, only shown; `placement` is where it would go. */
      readonly withheld?: Withheld
    }
  | {
      /** The page's `preExecute` refused a call (`stopAfter`), or zero-code mode would have. */
      readonly type: 'blocked'
      readonly at: number
      readonly agentId: AgentId
      readonly tool: string
      /** The length of the run the call would have extended. */
      readonly count: number
      /** What the agent was told, cut at `LIMITS.text`. */
      readonly feedback: string
      /** Milliseconds from the run's first call to the block. */
      readonly wasteMs?: number
      /** Wire agents: the tokens spent on the run's calls after the first, as for a reminder. */
      readonly wasteTokens?: number
      /**
       * Wire agents: present (true) because zero-code mode cannot stop a call the model already
       * made; the call ran, and the panel says "would block".
       */
      readonly wouldBlock?: true
    }
  | {
      /** Wire agents: one intercepted LLM request. */
      readonly type: 'request'
      readonly at: number
      readonly agentId: AgentId
      readonly url: string
      readonly format: WireFormat
      readonly calls: number
      /** Reminders in the body sent; with `withheld`, the reminders that were due but left out. */
      readonly remindersInserted: number
      /** True when the body was rewritten (a reminder inserted). */
      readonly rewritten: boolean
      /** Present when the request went out as the page made it although zero-code mode analysed it. */
      readonly withheld?: Withheld
    }
  | { readonly type: 'config'; readonly at: number; readonly config: GuardConfig }
  | { readonly type: 'fault'; readonly at: number; readonly message: string }
  | {
      /** The whole live state, re-sent after a reconnect so a panel is whole again. */
      readonly type: 'snapshot'
      readonly at: number
      readonly agents: readonly AgentState[]
      readonly config: GuardConfig
    }
  | {
      /** A document started (reload or navigation); the panel clears unless preserve-log is on. */
      readonly type: 'page-load'
      readonly at: number
      readonly url: string
    }

export type PanelEventType = PanelEvent['type']
