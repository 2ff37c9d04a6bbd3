import { createAgentRegistry, type AgentRecord } from './agents.ts'
import { canonicalArguments } from './canonical.ts'
import { advanceChain, resetChain } from './chain.ts'
import { resolveConfig } from './config.ts'
import { createEmitter } from './emitter.ts'
import { isObjectLike, kindOf, readExecution, UsageError } from './execution.ts'
import { createToolFilter } from './patterns.ts'
import { reminderMessage } from './reminders.ts'
import { errorText } from './text.ts'
import type {
  AgentSnapshot,
  GuardConfig,
  GuardConfigInput,
  NextDecision,
  PostToolDecision,
  ReminderMessage,
  RepeatToolGuard,
  ToolExecution,
  ToolResult,
} from './types.ts'

/**
 * Creates a guard. Throws `GuardConfigError` for a bad config; without one the guard runs the
 * engine defaults (`DEFAULT_CONFIG`).
 */
export function createRepeatToolGuard(input?: GuardConfigInput): RepeatToolGuard {
  let config = resolveConfig(input)
  let isTracked = createToolFilter(config)
  const events = createEmitter()
  const agents = createAgentRegistry((agent) => events.emit({ type: 'agent-seen', at: Date.now(), agent }))

  const nextThreshold = (count: number) => config.thresholds.find((t) => t > count) ?? null

  function observe(exec: ToolExecution, result?: ToolResult): ReminderMessage | undefined {
    const call = readExecution(exec, result)
    if (call.agent === undefined) return undefined
    const agent = agents.record(call.agent)
    const seq = ++agent.seq
    const { tool, denied, isError } = call
    const tracked = isTracked(tool)
    // An untracked call is transparent: the chain neither grows nor resets. Only an inspector
    // needs its arguments.
    if (!tracked && !events.listening) return undefined
    // Serialised at most once: a repeat the chain recognises by its plain text is not at all.
    const args = tracked ? advance(agent, tool, call.arguments) : canonicalArguments(call.arguments)
    const { count } = agent.chain
    const agentId = agent.info.id
    if (events.listening)
      events.emit({ type: 'call', at: Date.now(), agentId, seq, tool, canonicalArguments: args, tracked, denied, isError, count, nextThreshold: nextThreshold(count) })
    // Exactly at a threshold; past the highest one the chain is silent.
    if (!tracked || !config.thresholds.includes(count)) return undefined
    const level = count === config.thresholds[0] ? 'gentle' : 'detailed'
    const message = reminderMessage({ level, tool, count, canonicalArguments: args, argumentsPreviewChars: config.argumentsPreviewChars })
    events.emit({ type: 'reminder', at: Date.now(), agentId, seq, tool, count, level, message })
    return message
  }

  /** Advances the agent's chain; returns the call's canonical arguments. */
  function advance({ info, chain }: AgentRecord, tool: string, args: unknown): string {
    const previousCount = chain.count
    const canonical = advanceChain(chain, tool, args)
    // A run of 1 after the call is a new run: the one before it, if any, was lost.
    if (chain.count === 1 && previousCount > 0 && events.listening)
      events.emit({ type: 'chain-reset', at: Date.now(), agentId: info.id, reason: 'different-call', previousCount })
    return canonical
  }

  async function postExecute(exec: ToolExecution, result?: ToolResult, next?: NextDecision): Promise<PostToolDecision> {
    if (next !== undefined && typeof next !== 'function')
      throw new UsageError(`next must be a function returning a decision, got ${kindOf(next)}`)
    let reminder: ReminderMessage | undefined
    try {
      reminder = observe(exec, result)
    } catch (error) {
      if (error instanceof UsageError) throw error
      // The tool already ran; a guard fault must not fail it. Report it and step aside.
      events.emit({ type: 'fault', at: Date.now(), message: `postExecute: ${errorText(error)}` })
    }
    const decision = next === undefined ? { kind: 'continue' as const } : await next()
    return reminder === undefined ? decision : withReminderFirst(decision, reminder)
  }

  /** The downstream decision with every entry and field kept, and the reminder in front. */
  function withReminderFirst(decision: PostToolDecision, reminder: ReminderMessage): PostToolDecision {
    try {
      if (!isObjectLike(decision)) throw new Error(`next() returned ${kindOf(decision)}, not a decision`)
      const contexts = decision.additionalContexts
      if (contexts !== undefined && !Array.isArray(contexts))
        throw new Error(`the decision's additionalContexts is ${kindOf(contexts)}, not an array`)
      return { ...decision, additionalContexts: [reminder, ...(contexts ?? [])] }
    } catch (error) {
      events.emit({ type: 'fault', at: Date.now(), message: `postExecute: the reminder was not added: ${errorText(error)}` })
      return decision
    }
  }

  function promptSubmit(agent: object): void {
    if (!isObjectLike(agent)) throw new UsageError(`promptSubmit(agent) expects the agent object, got ${kindOf(agent)}`)
    const known = agents.find(agent)
    if (!known || known.chain.count === 0) return
    const previousCount = known.chain.count
    resetChain(known.chain)
    events.emit({ type: 'chain-reset', at: Date.now(), agentId: known.info.id, reason: 'prompt', previousCount })
  }

  function configure(update: GuardConfigInput): GuardConfig {
    // Both can throw, so both come before anything changes: a bad update keeps config and filter.
    const resolved = resolveConfig(update, config)
    const filter = createToolFilter(resolved)
    config = resolved
    isTracked = filter
    events.emit({ type: 'config', at: Date.now(), config: resolved })
    return resolved
  }

  function snapshot(): AgentSnapshot[] {
    return agents.live().map(({ info, chain: { tool, canonicalArguments: args, count } }) => ({
      ...info,
      ...(tool !== undefined && { tool, canonicalArguments: args }),
      count,
      nextThreshold: nextThreshold(count),
    }))
  }

  return {
    observe,
    postExecute,
    promptSubmit,
    configure,
    get config() {
      return config
    },
    subscribe: events.subscribe,
    snapshot,
  }
}
