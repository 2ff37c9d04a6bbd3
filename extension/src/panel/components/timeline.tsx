import { useCallback, useState } from 'preact/hooks'
import { isFiltering, NO_FILTER } from '../store/timeline-filter.ts'
import type { InspectorStore } from '../store/inspector-store.ts'
import type { AgentKey, TimelineEntry } from '../store/timeline-entry.ts'
import { EmptyState, NoAgentYet } from './empty-state.tsx'
import { estimateRowHeight, isOneLine, TimelineRow } from './timeline-row.tsx'
import { VirtualList } from './virtual-list.tsx'

interface TimelineProps {
  readonly store: InspectorStore
  /** One agent's rows, or every agent's (null). */
  readonly agent: AgentKey | null
}

/** The live log of calls, reminders, resets and requests, newest at the bottom. */
export function Timeline({ store, agent }: TimelineProps) {
  const view = store.timeline(agent)
  const [expanded, setExpanded] = useState<ReadonlySet<TimelineEntry>>(new Set())
  const toggle = useCallback(
    (entry: TimelineEntry) =>
      setExpanded((current) => {
        const next = new Set(current)
        if (!next.delete(entry)) next.add(entry)
        return next
      }),
    [],
  )

  // Every page reports its load, which is a row of its own: a page without an agent still has
  // rows, so the guidance goes above them instead of waiting for an empty timeline.
  const noAgent = store.agents().length === 0
  if (view.end === view.start) {
    if (isFiltering(store.filter))
      return (
        <>
          {noAgent && <NoAgentYet inline />}
          <EmptyState title="No rows match the filter.">
            <button type="button" class="rtg-button" onClick={() => store.setFilter(NO_FILTER)}>
              Clear the filter
            </button>
          </EmptyState>
        </>
      )
    if (noAgent) return <NoAgentYet />
    if (store.paused) return <EmptyState title="Recording is paused.">Press the record button to record calls again.</EmptyState>
    return <EmptyState title={agent === null ? 'Nothing recorded since the log was cleared.' : 'Nothing recorded for this agent yet.'}>Its calls show up here as they happen.</EmptyState>
  }

  const labelOf = (entry: TimelineEntry) => (entry.agent === null ? undefined : (store.agent(entry.agent)?.descriptor.label ?? entry.agent))
  return (
    <>
      {noAgent && <NoAgentYet inline />}
      <VirtualList
        epoch={view.epoch}
        start={view.start}
        end={view.end}
        estimate={(row) => estimateRowHeight(view.event(row))}
        fixed={(row) => isOneLine(view.event(row)) && !expanded.has(view.entry(row))}
        follow
        label="Timeline"
        testId="timeline"
        renderRow={(row) => {
          const entry = view.entry(row)
          return (
            <TimelineRow entry={entry} agentLabel={agent === null ? labelOf(entry) : undefined} expanded={expanded.has(entry)} onToggle={toggle} inCycle={store.inCycle(entry)} />
          )
        }}
      />
    </>
  )
}
