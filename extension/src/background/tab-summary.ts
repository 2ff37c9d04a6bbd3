// What the toolbar action says about a tab: the agents seen and the reminders fired since the top
// frame last loaded. Folded from the same batches the router buffers, so it follows the page
// exactly; a page can only ever reset or grow its own tab's summary. The page's address and origin
// come from the batch (the relay's own address, the browser's name for the sender's origin), never
// from the page-load event's `url`, which the page itself writes.
import type { PanelEvent } from '../protocol/events.ts'
import { MAX_SUMMARY_AGENTS, type TabBatch, type TabSummary } from '../protocol/messages.ts'

export const EMPTY_SUMMARY: TabSummary = { pageUrl: null, pageOrigin: null, agents: [], reminders: 0, observed: 0 }

/** Whether `summary` says what `EMPTY_SUMMARY` does (a stored one is a copy of it). */
export const isEmptySummary = ({ pageUrl, pageOrigin, agents, reminders, observed }: TabSummary): boolean =>
  pageUrl === null && pageOrigin === null && agents.length === 0 && reminders === 0 && observed === 0

type SummaryAgent = TabSummary['agents'][number]

function withAgent(agents: readonly SummaryAgent[], agent: SummaryAgent): readonly SummaryAgent[] {
  if (agents.length >= MAX_SUMMARY_AGENTS || agents.some((a) => a.id === agent.id)) return agents
  const { id, label, kind, reach } = agent
  return [...agents, reach === undefined ? { id, label, kind } : { id, label, kind, reach }]
}

function withAgents(summary: TabSummary, seen: readonly SummaryAgent[]): TabSummary {
  const agents = seen.reduce(withAgent, summary.agents)
  return agents === summary.agents ? summary : { ...summary, agents }
}

function fold(summary: TabSummary, event: PanelEvent, batch: TabBatch): TabSummary {
  switch (event.type) {
    case 'page-load':
      // An iframe's load is not the tab's: only the top frame starts the tab over.
      return batch.frameId === 0 ? { ...EMPTY_SUMMARY, pageUrl: batch.url, pageOrigin: batch.origin } : summary
    case 'agent':
      return withAgents(summary, [event.agent])
    case 'snapshot':
      // Sent again after the worker restarts: the agents it names are already counted.
      return withAgents(summary, event.agents)
    case 'reminder':
      return event.withheld === undefined ? { ...summary, reminders: summary.reminders + 1 } : { ...summary, observed: summary.observed + 1 }
    default:
      return summary
  }
}

/** `summary` after `batch`; the same object when the batch changes nothing the action shows. */
export function summarise(summary: TabSummary, batch: TabBatch): TabSummary {
  const moved = batch.frameId === 0 && (summary.pageUrl !== batch.url || summary.pageOrigin !== batch.origin)
  let next = moved ? { ...summary, pageUrl: batch.url, pageOrigin: batch.origin } : summary
  for (const event of batch.events) next = fold(next, event, batch)
  return next
}
