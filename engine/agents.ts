import type { Chain } from './chain.ts'
import { isObjectLike } from './execution.ts'
import { headOf } from './text.ts'
import type { AgentInfo } from './types.ts'

export interface AgentRecord {
  readonly info: AgentInfo
  readonly chain: Chain
  /** Calls seen so far, tracked or not. */
  seq: number
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

/**
 * Agents by identity. Records hang off the live agent objects (a WeakMap), so a dropped agent
 * takes its chain with it and nothing needs disposing; the id index holds only weak references.
 */
export function createAgentRegistry(onSeen: (info: AgentInfo) => void): AgentRegistry {
  const records = new WeakMap<object, AgentRecord>()
  const index = new Map<number, { readonly agent: WeakRef<object>; readonly record: AgentRecord }>()
  const reaper = new FinalizationRegistry<number>((id) => index.delete(id))
  let nextId = 1

  function record(agent: object, descendants: readonly object[] = []): AgentRecord {
    const known = records.get(agent)
    if (known) return known
    // The parent is recorded first, so it has the lower id and the panel sees it before its child.
    const parent = readProperty(agent, 'parent')
    const parentRecord =
      isObjectLike(parent) && parent !== agent && !descendants.includes(parent) && descendants.length < MAX_PARENT_DEPTH
        ? record(parent, [...descendants, agent])
        : undefined
    const id = nextId++
    const info: AgentInfo = Object.freeze({
      id,
      label: labelOf(agent, id),
      ...(parentRecord && { parentId: parentRecord.info.id }),
    })
    const created: AgentRecord = { info, chain: { count: 0 }, seq: 0 }
    records.set(agent, created)
    index.set(id, { agent: new WeakRef(agent), record: created })
    reaper.register(agent, id)
    onSeen(info)
    return created
  }

  function live(): AgentRecord[] {
    const out: AgentRecord[] = []
    for (const [id, entry] of index) {
      // Collected but not yet finalised: finalisation callbacks run late, or not at all.
      if (entry.agent.deref() === undefined) index.delete(id)
      else out.push(entry.record)
    }
    return out
  }

  return { record, find: (agent) => records.get(agent), live }
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
    if (typeof value === 'string' && value.length > 0) return headOf(value, 200)
    if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  }
  return `agent ${id}`
}
