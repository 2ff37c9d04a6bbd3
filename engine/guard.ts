import { createAgentRegistry, type AgentRecord } from './agents.ts'
import { createCallClock } from './call-clock.ts'
import { canonicalArguments } from './canonical.ts'
import { keepShape, readArguments, resetChain } from './chain.ts'
import { resolveConfig } from './config.ts'
import { createEmitter } from './emitter.ts'
import { isObjectLike, kindOf, type ObservedCall, readExecution, UsageError } from './execution.ts'
import { freeze, isArray, joined, mapped, now } from './intrinsics.ts'
import { createToolFilter } from './patterns.ts'
import { argumentsKey, blockFeedback, calledArguments, comparedResult, createDetectors, nextThreshold, type TrackedCall } from './detectors/index.ts'
import type { ToolPolicy } from './detectors/policy.ts'
import { errorText } from './error-text.ts'
import { runMark } from './run-marks.ts'
import type { AgentSnapshot, GuardConfig, GuardConfigInput, NextDecision, PostToolDecision, PreToolDecision, ReminderMessage, RepeatToolGuard, ToolExecution, ToolResult } from './types.ts'

const CONTINUE: PreToolDecision = freeze({ kind: 'continue' })

/** Milliseconds from `from` to `to`; never negative, should the clock step back. */
const elapsed = (from: number, to: number): number => (to > from ? to - from : 0)

/**
 * Creates a guard. Throws `GuardConfigError` for a bad config; without one the guard runs the
 * engine defaults (`DEFAULT_CONFIG`).
 */
export function createRepeatToolGuard(input?: GuardConfigInput): RepeatToolGuard {
  let config = resolveConfig(input)
  let isTracked = createToolFilter(config)
  const events = createEmitter()
  const agents = createAgentRegistry((agent) => events.emit({ type: 'agent-seen', at: now(), agent }))

  // One time per observed call (call-clock.ts): a listener that observes another call meanwhile
  // makes the rest of this one read the clock again, a later time, as separate reads did.
  const clock = createCallClock()
  let detectors = createDetectors(config, clock)

  function observe(exec: ToolExecution, result?: ToolResult): ReminderMessage | undefined {
    const call = readExecution(exec, result)
    if (call.agent === undefined) return undefined
    clock.next()
    const agent = agents.record(call.agent)
    const seq = ++agent.seq
    const { tool, denied, isError } = call
    const tracked = isTracked(tool)
    // An untracked call is transparent: the chain neither grows nor resets. Only an inspector
    // needs its arguments.
    if (!tracked && !events.listening) return undefined
    const policy = tracked ? detectors.policyFor(tool) : undefined
    // Read once; made a key (serialised at most once) only when the call is no repeat the chain
    // recognises by its shape and its text.
    const content = policy && detectors.contentOf(policy, result)
    const run = policy && advance(agent, call, policy, content)
    // A run begun before a configure turned a detector on is timed from its first call since.
    if (run && detectors.named && agent.chain.startedAt === 0) agent.chain.startedAt = clock.mark()
    const args = run ? calledArguments(run) : canonicalArguments(call.arguments)
    const { count } = agent.chain
    const agentId = agent.info.id
    if (events.listening) {
      const event = {
        type: 'call',
        at: clock.at(),
        agentId,
        seq,
        tool,
        canonicalArguments: args,
        tracked,
        denied,
        isError,
        count,
        nextThreshold: nextThreshold(detectors.policyFor(agent.chain.tool ?? tool), count),
      } as const
      // The original event is built as before; only a result-aware call's gets the result too:
      // this call's own, also when the run's last call stands for it.
      const compared = run && comparedResult(content, denied, run.result)
      events.emit(compared === undefined ? event : { ...event, result: compared })
    }
    if (!run) return undefined
    const fired = detectors.reminderFor(agent, run, count, call, result)
    if (fired === undefined) return undefined
    const { level, message, detector } = fired
    const at = clock.at()
    const named = detectors.named && { detector, wasteMs: elapsed(fired.startedAt ?? agent.chain.startedAt, clock.mark()) }
    events.emit({ type: 'reminder', at, agentId, seq, tool, count: fired.count, level, ...named, message })
    return message
  }

  /** Advances the agent's chain with a tracked call; returns the call as the detectors read it. */
  function advance({ info, chain }: AgentRecord, observed: ObservedCall, policy: ToolPolicy, content: unknown): TrackedCall {
    const { tool, arguments: rawArguments } = observed
    const read = readArguments(chain, tool, rawArguments)
    // The hot path: a repeat recognised by its shape, whose result (for a result-aware tool) is
    // the last call's again, word for word but for the values of ignored keys. The comparison would say 'same' and every write below
    // would leave the chain as it is (its arguments, its shape, a result that reads the same):
    // only the count moves. The call, as the detectors read it, is the run's last one again (set
    // with the chain's tool), unless a new config changed the tool's policy since. The last
    // call's result, not the chain's: after a denied call the chain keeps the last real result,
    // and the denied call (whose result matches any) must not stand for this one.
    const repeat = read.repeat && detectors.repeatsResult(policy, chain.call!.result, content, observed)
    if (repeat) {
      chain.count += 1
      if (chain.call!.policy === policy) return chain.call!
    }
    const result = detectors.resultOf(policy, content, observed)
    // Compared without the ignored keys (the same text unless the tool ignores some), shown as called.
    const key = argumentsKey(policy, read.canonical, rawArguments)
    const call: TrackedCall = { tool, canonicalArguments: key, calledArguments: read.canonical, policy, result }
    chain.call = call
    if (repeat) {
      // A new config may ignore other keys: the chain compares by this call's text from now on,
      // and a shape stands for the chain's text only while that is the text as called.
      if (key !== chain.canonicalArguments) chain.shape = undefined
      chain.canonicalArguments = key
      return call
    }
    const match = detectors.compare(chain, call)
    // A shape stands for the text as called: kept only while that is the text the chain compares.
    keepShape(chain, match === 'same' && chain.canonicalArguments === read.canonical, read, rawArguments)
    chain.canonicalArguments = key
    // A denied call has no result of its own: the run's next result is compared with the last real one.
    if (match !== 'same' || !result?.denied) chain.result = result
    if (match === 'same') {
      chain.count += 1
      return call
    }
    if (chain.count > 0 && events.listening) events.emit({ type: 'chain-reset', at: clock.at(), agentId: info.id, reason: match, previousCount: chain.count })
    chain.tool = tool
    chain.count = 1
    // The clock is read only while an opt-in detector is on, and only as a run starts.
    chain.startedAt = detectors.named ? clock.mark() : 0
    return call
  }

  /** Before a tool runs: block the call that would make its run longer than `stopAfter`. */
  function preExecute(exec: ToolExecution): PreToolDecision {
    try {
      const call = readExecution(exec, undefined)
      const known = call.agent && agents.find(call.agent)
      if (!known || !isTracked(call.tool)) return CONTINUE
      const policy = detectors.policyFor(call.tool)
      const feedback = blockFeedback(known.chain, call.tool, policy, () => argumentsKey(policy, canonicalArguments(call.arguments), call.arguments))
      if (feedback === undefined) return CONTINUE
      const at = now()
      // Blocking needs stopAfter, so an opt-in detector is on: the event says what the run cost.
      events.emit({ type: 'blocked', at, agentId: known.info.id, tool: call.tool, count: known.chain.count, feedback, wasteMs: elapsed(known.chain.startedAt, runMark(at)) })
      return freeze({ kind: 'block', feedback })
    } catch (error) {
      if (error instanceof UsageError) throw error
      // A gate that fails must not stop the agent: report it and let the call run.
      events.emit({ type: 'fault', at: now(), message: `preExecute: ${errorText(error)}` })
      return CONTINUE
    }
  }

  async function postExecute(exec: ToolExecution, result?: ToolResult, next?: NextDecision): Promise<PostToolDecision> {
    if (next !== undefined && typeof next !== 'function') throw new UsageError(`next must be a function returning a decision, got ${kindOf(next)}`)
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
      if (contexts !== undefined && !isArray(contexts)) throw new Error(`the decision's additionalContexts is ${kindOf(contexts)}, not an array`)
      return { ...decision, additionalContexts: joined<unknown>([reminder], contexts ?? []) }
    } catch (error) {
      events.emit({ type: 'fault', at: now(), message: `postExecute: the reminder was not added: ${errorText(error)}` })
      return decision
    }
  }

  function promptSubmit(agent: object): void {
    if (!isObjectLike(agent)) throw new UsageError(`promptSubmit(agent) expects the agent object, got ${kindOf(agent)}`)
    const known = agents.find(agent)
    // A chain at 0 has had no tracked call since it started, so no cycle window either.
    if (!known || known.chain.count === 0) return
    detectors.clear(known)
    const previousCount = known.chain.count
    resetChain(known.chain)
    events.emit({ type: 'chain-reset', at: now(), agentId: known.info.id, reason: 'prompt', previousCount })
  }

  function configure(update: GuardConfigInput): GuardConfig {
    // Both can throw, so both come before anything changes: a bad update keeps config and filter.
    const resolved = resolveConfig(update, config)
    const filter = createToolFilter(resolved)
    const detectorsNext = createDetectors(resolved, clock)
    config = resolved
    isTracked = filter
    detectors = detectorsNext
    events.emit({ type: 'config', at: now(), config: resolved })
    return resolved
  }

  function snapshot(): AgentSnapshot[] {
    return mapped(agents.live(), ({ info, chain: { tool, call, count } }) => ({
      ...info,
      ...(tool !== undefined && { tool, canonicalArguments: calledArguments(call!) }),
      count,
      nextThreshold: nextThreshold(detectors.policyFor(tool ?? ''), count),
    }))
  }

  return {
    observe,
    postExecute,
    preExecute,
    promptSubmit,
    configure,
    get config() {
      return config
    },
    subscribe: events.subscribe,
    snapshot,
  }
}
