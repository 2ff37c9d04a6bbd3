// The store's records seen through the byte budget (store-budget.ts gives the order): after every
// change the store drops the oldest rows past the row cap, then whatever the budget lets go.
import type { StoreRecords } from './store-records.ts'
import { evictOverBudget, type BudgetedRecords } from './store-budget.ts'

function budgetedView(records: StoreRecords): BudgetedRecords {
  const { frames, registry, replayGuard } = records
  return {
    bytes: () => records.retainedBytes(),
    get fingerprintBytes() {
      return replayGuard.bytes
    },
    forgetIdleFrames: (over) => frames.forgetIdle((frameId) => registry.holds(frameId), over),
    forgetFingerprint: () => replayGuard.forgetOldest(),
    forgetRow: () => records.forgetRow(),
    forgetFault: () => records.faults.size > 0 && (records.shiftFault(), true),
    forgetAgent() {
      const agent = registry.forgetOldest()
      if (!agent) return false
      records.agentLogs.delete(agent.key)
      records.cycles.forget(agent.key)
      if (agent.frameId !== 0 && !registry.holds(agent.frameId)) frames.forget(agent.frameId)
      return true
    },
    forgetConfig: () => records.config !== undefined && (records.setConfig(undefined), true),
    forgetTopFrame: () => frames.get(0) !== undefined && (frames.forget(0), true),
  }
}

/** Returns the function that brings `records` back within their row cap and byte budget. */
export function recordsEviction(records: StoreRecords): () => void {
  const budgeted = budgetedView(records)
  return () => {
    while (records.log.size > records.limits.maxEntries) records.forgetRow()
    evictOverBudget(budgeted, records.limits.maxBytes)
  }
}
