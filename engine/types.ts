/** The resolved, validated configuration a guard runs with. */
export interface GuardConfig {
  /** Consecutive counts that fire a reminder, ascending, each an integer >= 2. */
  readonly thresholds: readonly number[]
  /** Tool-name patterns to track; empty tracks every tool. */
  readonly include: readonly string[]
  /** Tool-name patterns that are transparent to the chain. */
  readonly exclude: readonly string[]
  /** Cap on the canonical arguments quoted in the detailed reminder. */
  readonly argumentsPreviewChars: number
}

/** What a caller may pass: any subset of the keys; anything else is rejected. */
export type GuardConfigInput = Partial<{
  thresholds: readonly number[]
  include: readonly string[]
  exclude: readonly string[]
  argumentsPreviewChars: number
}>

/** One executed tool call, as the agent loop hands it to the guard. */
export interface ToolExecution {
  /**
   * The live agent object; calls without one are ignored. Its `name` (or `id`) labels it, and its
   * `parent`, read when the agent is first seen, makes it a subagent.
   */
  readonly agent?: object | null
  readonly name: string
  readonly arguments?: unknown
}

/** The outcome of a tool call; only `denied` and `isError` are read. */
export interface ToolResult {
  readonly isError?: boolean
  readonly denied?: boolean
  readonly content?: unknown
}

export interface ReminderSource {
  readonly kind: 'plugin'
  readonly plugin: 'repeat-tool-guard'
  readonly form: 'notice'
  /** `${tool} × ${count}` */
  readonly summary: string
}

/** The user-role message the model sees after the step's tool results. */
export interface ReminderMessage {
  readonly role: 'user'
  readonly content: readonly [{ readonly type: 'text'; readonly text: string }]
  readonly source: ReminderSource
}

export interface ContinueDecision {
  readonly kind: 'continue'
  readonly additionalContexts?: readonly unknown[]
  readonly [field: string]: unknown
}

export interface BlockDecision {
  readonly kind: 'block'
  readonly feedback: string
  readonly additionalContexts?: readonly unknown[]
  readonly [field: string]: unknown
}

export type PostToolDecision = ContinueDecision | BlockDecision

export type NextDecision = () => PostToolDecision | Promise<PostToolDecision>

export type ReminderLevel = 'gentle' | 'detailed'

/** A live agent as the panel sees it. */
export interface AgentInfo {
  /** Stable small id, unique within one guard, starting at 1. */
  readonly id: number
  readonly label: string
  /** The id of the agent's parent (`agent.parent` when the agent was first seen), if it has one. */
  readonly parentId?: number
}

export interface AgentSnapshot extends AgentInfo {
  /** The tool of the current run, absent before the first tracked call. */
  readonly tool?: string
  readonly canonicalArguments?: string
  readonly count: number
  /** The next threshold the run would reach, or null past the highest. */
  readonly nextThreshold: number | null
}

export type ChainResetReason = 'prompt' | 'different-call'

/** Structured events a guard emits for inspectors such as the DevTools panel. */
export type GuardEvent =
  | { readonly type: 'agent-seen'; readonly at: number; readonly agent: AgentInfo }
  | {
      readonly type: 'call'
      readonly at: number
      readonly agentId: number
      /** Per-agent call number, starting at 1, counting untracked calls too. */
      readonly seq: number
      readonly tool: string
      readonly canonicalArguments: string
      readonly tracked: boolean
      readonly denied: boolean
      readonly isError: boolean
      /** The run length after this call (unchanged by an untracked call). */
      readonly count: number
      readonly nextThreshold: number | null
    }
  | {
      readonly type: 'chain-reset'
      readonly at: number
      readonly agentId: number
      readonly reason: ChainResetReason
      /** The run length that was lost. */
      readonly previousCount: number
    }
  | {
      readonly type: 'reminder'
      readonly at: number
      readonly agentId: number
      readonly seq: number
      readonly tool: string
      readonly count: number
      readonly level: ReminderLevel
      readonly message: ReminderMessage
    }
  | { readonly type: 'config'; readonly at: number; readonly config: GuardConfig }
  /** The guard failed internally; the caller's tool call went on untouched. */
  | { readonly type: 'fault'; readonly at: number; readonly message: string }

export type GuardListener = (event: GuardEvent) => void

export interface RepeatToolGuard {
  /**
   * The synchronous core: advance the agent's chain, return the reminder that fired, if any.
   * Throws `TypeError` on misuse, and lets a throwing getter on `exec` or `result` through.
   */
  observe(exec: ToolExecution, result?: ToolResult): ReminderMessage | undefined
  /**
   * The post-execute waterfall: always delegates to `next`, puts the reminder first. Rejects with
   * `TypeError` on misuse; any other failure inside the guard is a `fault` event, never a rejection.
   */
  postExecute(exec: ToolExecution, result?: ToolResult, next?: NextDecision): Promise<PostToolDecision>
  /** A user prompt: the agent's chain starts over. Throws `TypeError` when `agent` is not an object. */
  promptSubmit(agent: object): void
  /**
   * Validate `config` over the one in force (keys left out keep their value) and apply it from the
   * next call on; chains are kept. On error throws `GuardConfigError` and keeps the old config.
   */
  configure(config: GuardConfigInput): GuardConfig
  readonly config: GuardConfig
  /** Structured events for inspectors; returns the unsubscribe function. A throwing listener is ignored. */
  subscribe(listener: GuardListener): () => void
  /** Every live agent, oldest first, with its current chain. */
  snapshot(): AgentSnapshot[]
}
