// What the panel's retained data costs in memory, estimated cheaply enough to run on every row of
// every live batch: two bytes per string character (the worst case of a JavaScript string) plus a
// fixed overhead for the row's objects and array slots. Only an estimate, but one that grows with
// every string the panel keeps, so a budget in these bytes bounds the real heap.
import type { FaultRecord } from './fault-record.ts'
import type { TimelineEvent } from './timeline-entry.ts'

/** The objects, array slots and numbers that come with any retained row or record. */
const ROW_OVERHEAD_BYTES = 160

const chars = (text: string): number => 2 * text.length

export function rowBytes(event: TimelineEvent): number {
  switch (event.type) {
    case 'call':
      return ROW_OVERHEAD_BYTES + chars(event.agentId) + chars(event.tool) + chars(event.args) + chars(event.result ?? '')
    case 'reminder':
      return ROW_OVERHEAD_BYTES + chars(event.agentId) + chars(event.tool) + chars(event.text) + chars(event.placement ?? '')
    case 'blocked':
      return ROW_OVERHEAD_BYTES + chars(event.agentId) + chars(event.tool) + chars(event.feedback)
    case 'request':
      return ROW_OVERHEAD_BYTES + chars(event.agentId) + chars(event.url)
    case 'reset':
      return ROW_OVERHEAD_BYTES + chars(event.agentId)
    case 'page-load':
      return ROW_OVERHEAD_BYTES + chars(event.url)
  }
}

export function faultBytes(fault: FaultRecord): number {
  return ROW_OVERHEAD_BYTES + chars(fault.message)
}

export function textBytes(text: string): number {
  return ROW_OVERHEAD_BYTES + chars(text)
}
