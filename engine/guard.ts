import { createAgentRegistry, type AgentRecord } from './agents.ts'
import { canonicalArguments } from './canonical.ts'
import { resolveConfig } from './config.ts'
import { createEmitter } from './emitter.ts'
import { isObjectLike, kindOf, readExecution, UsageError } from './execution.ts'
import { arrayFind, arrayIncludes, isArray, joined, mapped, now } from './intrinsics.ts'
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
  const agents = createAgentRegistry((agent) => events.emit({ type: 'agent-seen', at: now(), agent }))

  const nextThreshold = (count: number) => arrayFind(config.thresholds, (t) => t > count) ?? null

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
    // Serialised once; the chain compares the tool and this string as they are.
    const args = canonicalArguments(call.arguments)
    if (tracked) advance(agent, tool, args)
    const { count } = agent.chain
    const agentId = agent.info.id
    if (events.listening)
      events.emit({ type: 'call', at: now(), agentId, seq, tool, canonicalArguments: args, tracked, denied, isError, count, nextThreshold: nextThreshold(count) })
    // Exactly at a threshold; past the highest one the chain is silent.
    if (!tracked || !arrayIncludes(config.thresholds, count)) return undefined
    const level = count === config.thresholds[0] ? 'gentle' : 'detailed'
    const message = reminderMessage({ level, tool, count, canonicalArguments: args, argumentsPreviewChars: config.argumentsPreviewChars })
    events.emit({ type: 'reminder', at: now(), agentId, seq, tool, count, level, message })
    return message
  }

  function advance({ info, chain }: AgentRecord, tool: string, args: string): void {
    if (chain.tool === tool && chain.canonicalArguments === args) {
      chain.count += 1
      return
    }
    if (chain.count > 0 && events.listening)
      events.emit({ type: 'chain-reset', at: now(), agentId: info.id, reason: 'different-call', previousCount: chain.count })
    chain.tool = tool
    chain.canonicalArguments = args
    chain.count = 1
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
      events.emit({ type: 'fault', at: now(), message: `postExecute: ${errorText(error)}` })
    }
    const decision = next === undefined ? { kind: 'continue' as const } : await next()
    return reminder === undefined ? decision : withReminderFirst(decision, reminder)
  }

  /** The downstream decision with every entry and field kept, and the reminder in front. */
  function withReminderFirst(decision: PostToolDecision, reminder: ReminderMessage): PostToolDecision {
    try {
      if (!isObjectLike(decision)) throw new Error(`next() returned ${kindOf(decision)}, not a decision`)
      const contexts = decision.additionalContexts
      if (contexts !== undefined && !isArray(contexts))
        throw new Error(`the decision's additionalContexts is ${kindOf(contexts)}, not an array`)
      return { ...decision, additionalContexts: joined<unknown>([reminder], contexts ?? []) }
    } catch (error) {
      events.emit({ type: 'fault', at: now(), message: `postExecute: the reminder was not added: ${errorText(error)}` })
      return decision
    }
  }

  function promptSubmit(agent: object): void {
    if (!isObjectLike(agent)) throw new UsageError(`promptSubmit(agent) expects the agent object, got ${kindOf(agent)}`)
    const known = agents.find(agent)
    if (!known || known.chain.count === 0) return
    const previousCount = known.chain.count
    known.chain.tool = undefined
    known.chain.canonicalArguments = undefined
    known.chain.count = 0
    events.emit({ type: 'chain-reset', at: now(), agentId: known.info.id, reason: 'prompt', previousCount })
  }

  function configure(update: GuardConfigInput): GuardConfig {
    // resolveConfig throws before anything changes: a bad update keeps the config in force.
    const resolved = resolveConfig(update, config)
    config = resolved
    isTracked = createToolFilter(resolved)
    events.emit({ type: 'config', at: now(), config: resolved })
    return resolved
  }

  function snapshot(): AgentSnapshot[] {
    return mapped(agents.live(), ({ info, chain: { tool, canonicalArguments: args, count } }) => ({
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
