import { emptyChain, type Chain } from './chain.ts'
import { isObjectLike } from './execution.ts'
import { arrayIncludes, freeze, isFiniteNumber, joined, maps, NativeWeakRef, registerFinalizer, weakMapGet, weakMapSet, weakRefDeref } from './intrinsics.ts'
import { headOf } from './text-head.ts'
import type { AgentInfo } from './types.ts'

export interface AgentRecord {
  readonly info: AgentInfo
  readonly chain: Chain
  /** Calls seen so far, tracked or not. */
  seq: number
  /** The cycle detector's window of the agent's calls, when it is on (detectors/cycles.ts). */
  cycleWindow?: object
  /** The error-run detector's run, when it is on (detectors/error-runs.ts). */
  errorRun?: object
  /** The near-repeat detector's run, when it is on (detectors/similar.ts). */
  similarRun?: object
}

interface AgentRegistry {
  /** The agent's record, created (with its parent's) the first time the agent is seen. */
  record(agent: object): AgentRecord
  find(agent: object): AgentRecord | undefined
  /** The records of the agents still alive, oldest first. */
  live(): AgentRecord[]
}

// A page decides what `agent.parent` holds: a long or looping parent chain must stay cheap.
const MAX_PARENT_DEPTH = 32
const NO_DESCENDANTS: readonly object[] = freeze([])

/**
 * Agents by identity. Records hang off the live agent objects (a WeakMap), so a dropped agent
 * takes its chain with it and nothing needs disposing; the id index holds only weak references.
 */
export function createAgentRegistry(onSeen: (info: AgentInfo) => void): AgentRegistry {
  const records = new WeakMap<object, AgentRecord>()
  type Entry = { readonly agent: WeakRef<object>; readonly record: AgentRecord }
  const index = new Map<number, Entry>()
  const indexed = maps<number, Entry>()
  const reaper = new FinalizationRegistry<number>((id) => indexed.delete(index, id))
  let nextId = 1

  // Every call looks its agent up: the lookup allocates nothing; creating a record is the rare case.
  const record = (agent: object): AgentRecord => weakMapGet(records, agent) ?? recordNew(agent, NO_DESCENDANTS)

  function recordNew(agent: object, descendants: readonly object[]): AgentRecord {
    // The parent is recorded first, so it has the lower id and the panel sees it before its child.
    const parent = readProperty(agent, 'parent')
    const parentRecord =
      isObjectLike(parent) && parent !== agent && !arrayIncludes(descendants, parent) && descendants.length < MAX_PARENT_DEPTH
        ? (weakMapGet(records, parent) ?? recordNew(parent, joined(descendants, [agent])))
        : undefined
    const id = nextId++
    const info: AgentInfo = freeze({
      id,
      label: labelOf(agent, id),
      ...(parentRecord && { parentId: parentRecord.info.id }),
    })
    const created: AgentRecord = { info, chain: emptyChain(), seq: 0 }
    weakMapSet(records, agent, created)
    indexed.set(index, id, { agent: new NativeWeakRef(agent), record: created })
    registerFinalizer(reaper, agent, id)
    onSeen(info)
    return created
  }

  function live(): AgentRecord[] {
    const out: AgentRecord[] = []
    indexed.forEach(index, (entry, id) => {
      // Collected but not yet finalised: finalisation callbacks run late, or not at all.
      if (weakRefDeref(entry.agent) === undefined) indexed.delete(index, id)
      else out[out.length] = entry.record
    })
    return out
  }

  return { record, find: (agent) => weakMapGet(records, agent), live }
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
  return labelFrom(readProperty(agent, 'name')) ?? labelFrom(readProperty(agent, 'id')) ?? `agent ${id}`
}

function labelFrom(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0) return headOf(value, 200)
  if (typeof value === 'number' && isFiniteNumber(value)) return `${value}`
  return undefined
}
