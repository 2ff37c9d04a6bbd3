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
  // The opt-in detectors (docs/detectors.md, "The keys"). A resolved config holds one of these keys only when it
  // differs from its default, so a config without them is the original's, byte for byte.
  /** `'tool'`: a run is the same tool, whatever its arguments. Default `'call'`. */
  readonly countBy?: CountBy
  /** A repeat counts only when its result is the same as the previous call's too. Default false. */
  readonly resultAware?: boolean
  /** Object keys removed at any depth from result content before results are compared. */
  readonly ignoreResultKeys?: readonly string[]
  /** Blocks of 2..maxPeriod calls repeated back to back. Default off. */
  readonly cycles?: CycleConfig
  /** `preExecute` blocks the call that would make a run longer than this. Default off. */
  readonly stopAfter?: number
  /** Per-tool overrides; the first entry whose `match` pattern matches the tool wins. */
  readonly tools?: readonly ToolOverride[]
  /** Object keys removed at any depth from the arguments before calls are compared. */
  readonly ignoreArgumentKeys?: readonly string[]
  /** One tool returning errors `after` times in a row, whatever its arguments. Default off. */
  readonly errorRuns?: ErrorRunConfig
  /** Near repeats: consecutive calls of one tool whose arguments are alike but not identical. Default off. */
  readonly similar?: SimilarConfig
  /** Zero-code mode only: the model giving the same answer `after` times in a row. Default off. */
  readonly repeatedText?: RepeatedTextConfig
}

export interface RepeatedTextConfig {
  /** Identical answers in a row that fire the first reminder (then twice and three times that), >= 2. */
  readonly after: number
}

export interface SimilarConfig {
  /** The Sørensen–Dice coefficient of two calls' argument bigrams at which they are alike, in [0.5, 1). */
  readonly threshold: number
  /** Calls in a similar run that fire the first reminder (then twice and three times that), >= 3. */
  readonly minCalls: number
}

export interface ErrorRunConfig {
  /** Consecutive errors that fire the first reminder (then twice and three times that). */
  readonly after: number
}

export type CountBy = 'call' | 'tool'

export interface CycleConfig {
  /** The longest block of calls looked for, 2..6. */
  readonly maxPeriod: number
  /** Completed periods that fire the first cycle reminder (then twice and three times that). */
  readonly repeats: number
}

/** Settings for the tools `match` names; a field left out falls back to the top level. */
export interface ToolOverride {
  readonly match: string
  readonly thresholds?: readonly number[]
  readonly countBy?: CountBy
  readonly resultAware?: boolean
  /** `null`: never block this tool, whatever the top level says. */
  readonly stopAfter?: number | null
  /** Replaces the top level's list for this tool; `[]` compares every key. */
  readonly ignoreArgumentKeys?: readonly string[]
  /** `null`: no error runs for this tool, whatever the top level says. */
  readonly errorRuns?: ErrorRunConfig | null
  /** `null`: no near repeats for this tool, whatever the top level says. */
  readonly similar?: SimilarConfig | null
}

/** What a caller may pass: any subset of the keys; anything else is rejected. */
export type GuardConfigInput = Partial<{
  thresholds: readonly number[]
  include: readonly string[]
  exclude: readonly string[]
  argumentsPreviewChars: number
  countBy: CountBy
  resultAware: boolean
  ignoreResultKeys: readonly string[]
  /** `null` turns cycle detection off. */
  cycles: CycleConfig | null
  /** `null` turns enforcement off. */
  stopAfter: number | null
  tools: readonly ToolOverride[]
  ignoreArgumentKeys: readonly string[]
  /** `null` turns error runs off. */
  errorRuns: ErrorRunConfig | null
  /** `null` turns near repeats off. */
  similar: SimilarConfig | null
  /** `null` turns repeated answers off; the page API's guard, which sees no answers, ignores it. */
  repeatedText: RepeatedTextConfig | null
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

/** The outcome of a tool call; `content` is read only by the result-aware detector. */
export interface ToolResult {
  readonly isError?: boolean
  readonly denied?: boolean
  readonly content?: unknown
}

export interface ReminderSource {
  readonly kind: 'plugin'
  readonly plugin: 'repeat-tool-guard'
  readonly form: 'notice'
  /** `${tool} × ${count}`, `cycle × ${completed periods}` `${tool} errors × ${count}` or `${tool} ≈ × ${count}` */
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

/** What `preExecute` says before a tool runs: go on, or do not run it and tell the model why. */
export type PreToolDecision = { readonly kind: 'continue' } | { readonly kind: 'block'; readonly feedback: string }

export type ReminderLevel = 'gentle' | 'detailed' | 'cycle' | 'error-run' | 'similar' | 'repeated-text'

/**
 * Which detector fired: the original exact repeat, a same-tool run (`countBy: 'tool'`), a cycle,
 * an error run, a near repeat, or (zero-code mode only) a repeated answer.
 */
export type DetectorName = 'repeat' | 'same-tool' | 'cycle' | 'error-run' | 'similar' | 'repeated-text'

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

export type ChainResetReason = 'prompt' | 'different-call' | 'result-changed'

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
      /**
       * Only for a tracked call with content whose tool is result-aware: the content as runs
       * compare it (text as it came, anything else canonical, `ignoreResultKeys` removed), so an
       * inspector can replay results too.
       */
      readonly result?: string
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
      /** For a cycle reminder: the tool of the call that completed the period. */
      readonly tool: string
      /** For a cycle reminder: the completed periods. */
      readonly count: number
      readonly level: ReminderLevel
      /** Present whenever an opt-in detector is configured, so the original events stay as they were. */
      readonly detector?: DetectorName
      /**
       * With `detector`: milliseconds from the first call of the run that fired (the cycle's
       * first call, the first error, the first near repeat) to the call that fired it.
       */
      readonly wasteMs?: number
      readonly message: ReminderMessage
    }
  | {
      /** `preExecute` refused a call (`stopAfter`). */
      readonly type: 'blocked'
      readonly at: number
      readonly agentId: number
      readonly tool: string
      /** The length of the run the call would have extended. */
      readonly count: number
      readonly feedback: string
      /** Milliseconds from the run's first call to the block (always there: blocking needs `stopAfter`). */
      readonly wasteMs?: number
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
   * Before a tool runs: `block` when the call would extend a run that already holds `stopAfter`
   * calls, else `continue`. Changes no chain. Throws `TypeError` on misuse; any other failure is
   * a `fault` event and `continue`.
   */
  preExecute(exec: ToolExecution): PreToolDecision
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
