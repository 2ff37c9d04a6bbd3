import { canonicalArguments } from './canonical.ts'
import { resolveConfig } from './config.ts'
import { createToolFilter } from './patterns.ts'
import { reminderMessage } from './reminders.ts'
import type {
  AgentInfo,
  AgentSnapshot,
  GuardConfig,
  GuardConfigInput,
  GuardEvent,
  GuardListener,
  NextDecision,
  PostToolDecision,
  ReminderMessage,
  RepeatToolGuard,
  ToolExecution,
  ToolResult,
} from './types.ts'

interface Chain {
  tool?: string
  canonicalArguments?: string
  count: number
}

interface AgentRecord {
  readonly info: AgentInfo
  readonly chain: Chain
  seq: number
}

const CONTINUE: PostToolDecision = Object.freeze({ kind: 'continue' })

/** Distributes the `Omit` over the event union, so each variant keeps its own fields. */
type EventBody = GuardEvent extends infer E ? (E extends GuardEvent ? Omit<E, 'at'> : never) : never

/**
 * Creates a guard. Throws `GuardConfigError` for a bad config; without one the guard runs the
 * engine defaults (`DEFAULT_CONFIG`).
 */
export function createRepeatToolGuard(input?: GuardConfigInput): RepeatToolGuard {
  let config = resolveConfig(input)
  let isTracked = createToolFilter(config)
  const listeners = new Set<GuardListener>()
  // Chains live as long as their agent object: nothing to dispose when an agent is dropped.
  const records = new WeakMap<object, AgentRecord>()
  const live = new Map<number, WeakRef<object>>()
  const reaper = new FinalizationRegistry<number>((id) => live.delete(id))
  let nextId = 1

  function emit(body: EventBody): void {
    if (listeners.size === 0) return
    const event = { ...body, at: Date.now() } as GuardEvent
    for (const listener of listeners) {
      try {
        listener(event)
      } catch {
        // An inspector's failure must never reach the agent loop.
      }
    }
  }

  function nextThreshold(count: number): number | null {
    return config.thresholds.find((t) => t > count) ?? null
  }

  function record(agent: object, depth = 0): AgentRecord {
    const known = records.get(agent)
    if (known) return known
    const id = nextId++
    const parent = depth < 16 ? readProperty(agent, 'parent') : undefined
    const parentId = isObject(parent) && parent !== agent ? record(parent, depth + 1).info.id : undefined
    const info: AgentInfo = { id, label: labelOf(agent, id), ...(parentId === undefined ? {} : { parentId }) }
    const rec: AgentRecord = { info, chain: { count: 0 }, seq: 0 }
    records.set(agent, rec)
    live.set(id, new WeakRef(agent))
    reaper.register(agent, id)
    emit({ type: 'agent-seen', agent: info })
    return rec
  }

  function observe(exec: ToolExecution, result?: ToolResult): ReminderMessage | undefined {
    checkExecution(exec, result)
    const agent = exec.agent
    if (agent === undefined || agent === null) return undefined
    const rec = record(agent)
    const { chain } = rec
    const seq = ++rec.seq
    const tool = exec.name
    const tracked = isTracked(tool)
    const denied = result?.denied === true
    const isError = result?.isError === true
    if (!tracked) {
      if (listeners.size > 0) {
        const canonical = canonicalArguments(exec.arguments)
        emit({ type: 'call', agentId: rec.info.id, seq, tool, canonicalArguments: canonical, tracked, denied, isError, count: chain.count, nextThreshold: nextThreshold(chain.count) })
      }
      return undefined
    }
    const canonical = canonicalArguments(exec.arguments)
    if (chain.tool === tool && chain.canonicalArguments === canonical) {
      chain.count += 1
    } else {
      if (chain.count > 0) emit({ type: 'chain-reset', agentId: rec.info.id, reason: 'different-call', previousCount: chain.count })
      chain.tool = tool
      chain.canonicalArguments = canonical
      chain.count = 1
    }
    const count = chain.count
    emit({ type: 'call', agentId: rec.info.id, seq, tool, canonicalArguments: canonical, tracked, denied, isError, count, nextThreshold: nextThreshold(count) })
    if (!config.thresholds.includes(count)) return undefined
    const level = count === config.thresholds[0] ? 'gentle' : 'detailed'
    const message = reminderMessage({ level, tool, count, canonicalArguments: canonical, argumentsPreviewChars: config.argumentsPreviewChars })
    emit({ type: 'reminder', agentId: rec.info.id, seq, tool, count, level, message })
    return message
  }

  async function postExecute(exec: ToolExecution, result?: ToolResult, next?: NextDecision): Promise<PostToolDecision> {
    checkExecution(exec, result)
    if (next !== undefined && typeof next !== 'function') throw new TypeError('repeat-tool-guard: next must be a function returning a decision')
    let reminder: ReminderMessage | undefined
    try {
      reminder = observe(exec, result)
    } catch (error) {
      // The call already ran; a guard fault must not fail it. Report and step aside.
      emit({ type: 'fault', message: `postExecute: ${error instanceof Error ? error.message : String(error)}` })
    }
    const decision = next ? await next() : CONTINUE
    if (!reminder) return decision
    if (!isObject(decision)) throw new TypeError('repeat-tool-guard: next() must return a decision object')
    return { ...decision, additionalContexts: [reminder, ...(decision.additionalContexts ?? [])] }
  }

  function promptSubmit(agent: object): void {
    if (!isObject(agent)) throw new TypeError(`repeat-tool-guard: promptSubmit(agent) expects the agent object, got ${typeof agent}`)
    const rec = records.get(agent)
    if (!rec || rec.chain.count === 0) return
    const previousCount = rec.chain.count
    rec.chain.tool = undefined
    rec.chain.canonicalArguments = undefined
    rec.chain.count = 0
    emit({ type: 'chain-reset', agentId: rec.info.id, reason: 'prompt', previousCount })
  }

  function configure(input: GuardConfigInput): GuardConfig {
    const resolved = resolveConfig(input, config)
    config = resolved
    isTracked = createToolFilter(resolved)
    emit({ type: 'config', config: resolved })
    return resolved
  }

  function snapshot(): AgentSnapshot[] {
    const out: AgentSnapshot[] = []
    for (const [id, ref] of live) {
      const agent = ref.deref()
      const rec = agent && records.get(agent)
      if (!rec) {
        live.delete(id)
        continue
      }
      const { tool, canonicalArguments: args, count } = rec.chain
      out.push({ ...rec.info, ...(tool === undefined ? {} : { tool, canonicalArguments: args }), count, nextThreshold: nextThreshold(count) })
    }
    return out
  }

  return {
    observe,
    postExecute,
    promptSubmit,
    configure,
    get config() {
      return config
    },
    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError('repeat-tool-guard: subscribe(listener) expects a function')
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    snapshot,
  }
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function'
}

function checkExecution(exec: ToolExecution, result?: ToolResult): void {
  if (!isObject(exec)) throw new TypeError(`repeat-tool-guard: expected a tool execution { agent, name, arguments }, got ${exec === null ? 'null' : typeof exec}`)
  if (typeof exec.name !== 'string' || exec.name.length === 0)
    throw new TypeError(`repeat-tool-guard: the tool execution needs a non-empty string name, got ${typeof exec.name}`)
  const agent = exec.agent
  if (agent !== undefined && agent !== null && !isObject(agent))
    throw new TypeError(`repeat-tool-guard: agent must be the live agent object, got ${typeof agent}`)
  if (result !== undefined && result !== null && !isObject(result))
    throw new TypeError(`repeat-tool-guard: the tool result must be an object, got ${typeof result}`)
}

function readProperty(target: object, key: string): unknown {
  try {
    return (target as Record<string, unknown>)[key]
  } catch {
    return undefined
  }
}

/** `agent.name ?? agent.id ?? 'agent N'`, read defensively: the agent may be any page object. */
function labelOf(agent: object, id: number): string {
  for (const key of ['name', 'id']) {
    const value = readProperty(agent, key)
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 200)
    if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  }
  return `agent ${id}`
}
