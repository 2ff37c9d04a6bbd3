// What the panel's retained data costs in memory, estimated cheaply enough to run on every row of
// every live batch: two bytes per string character (the worst case of a JavaScript string) plus a
// fixed overhead for each record's objects and slots. Only an estimate, but one that grows with
// every string the panel keeps, so a budget in these bytes bounds the real heap. It also bounds
// the session file: a record's JSON takes at most EXPORT_BYTES_PER_BYTE times its estimate (a
// character takes at most six bytes as JSON, `\u0001`; numbers and keys fit in the overheads).
import { approxSize } from '../../protocol/size.ts'
import type { GuardConfig } from '../../../../engine/index.ts'
import type { FaultRecord } from './fault-record.ts'
import type { AgentRecord, TimelineEvent } from './timeline-entry.ts'

/** The objects, array slots and numbers that come with any retained row or record. */
const ROW_OVERHEAD_BYTES = 160
/** An agent's record, its descriptor, its rows' index and the per-agent entries of the maps that hold them. */
const AGENT_OVERHEAD_BYTES = 3 * ROW_OVERHEAD_BYTES

/** How many bytes of session file one estimated byte can take at most. */
export const EXPORT_BYTES_PER_BYTE = 3

const chars = (text: string | undefined): number => (text === undefined ? 0 : 2 * text.length)

/** A timeline row; `agent`, the key of its agent, is written with it in a session file. */
export function rowBytes(event: TimelineEvent, agent: string | null = null): number {
  const key = chars(agent ?? undefined)
  switch (event.type) {
    case 'call':
      return ROW_OVERHEAD_BYTES + key + chars(event.agentId) + chars(event.tool) + chars(event.args) + chars(event.result)
    case 'reminder':
      return ROW_OVERHEAD_BYTES + key + chars(event.agentId) + chars(event.tool) + chars(event.text) + chars(event.placement)
    case 'blocked':
      return ROW_OVERHEAD_BYTES + key + chars(event.agentId) + chars(event.tool) + chars(event.feedback)
    case 'request':
      return ROW_OVERHEAD_BYTES + key + chars(event.agentId) + chars(event.url)
    case 'reset':
      return ROW_OVERHEAD_BYTES + key + chars(event.agentId)
    case 'page-load':
      return ROW_OVERHEAD_BYTES + key + chars(event.url)
  }
}

export function faultBytes(fault: FaultRecord): number {
  return ROW_OVERHEAD_BYTES + chars(fault.message)
}

/** A text kept on its own: a frame's address, a tool's name, a replay fingerprint. */
export function textBytes(text: string): number {
  return ROW_OVERHEAD_BYTES + chars(text)
}

/** An agent's record with every text it holds: the run's tool and arguments change with its calls. */
export function agentBytes(agent: Pick<AgentRecord, 'key' | 'descriptor' | 'parentKey' | 'tool' | 'args'>): number {
  const { key, descriptor, parentKey, tool, args } = agent
  return AGENT_OVERHEAD_BYTES + chars(key) + chars(descriptor.id) + chars(descriptor.label) + chars(descriptor.parentId) + chars(parentKey) + chars(tool) + chars(args)
}

/** A cycle the guard reminded about, by the tools of its period. */
export function cycleBytes(tools: readonly string[]): number {
  let bytes = ROW_OVERHEAD_BYTES
  for (const tool of tools) bytes += chars(tool) + 8
  return bytes
}

/** The config in force, by its size as JSON. */
export function configBytes(config: GuardConfig): number {
  return ROW_OVERHEAD_BYTES + 2 * approxSize(config)
}
