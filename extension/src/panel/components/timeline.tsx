import './common-controls.css'
import { useCallback, useId, useState } from 'preact/hooks'
import { isFiltering, NO_FILTER } from '../store/timeline-filter.ts'
import type { PanelStore } from '../store/panel-store.ts'
import type { AgentKey, TimelineEntry } from '../store/timeline-entry.ts'
import { EmptyState, NoAgentYet } from './empty-state.tsx'
import { estimateRowHeight, isOneLine, TimelineRow } from './timeline-row.tsx'
import { movedTo } from './list-keys.ts'
import { timelineRowLabel } from './timeline-row-label.ts'
import { VirtualList } from './virtual-list.tsx'
import { triggerKind } from '../store/reminder-trigger.ts'

/** Rows with details to open: a call's full arguments, a round-2 reminder's trigger. */
const expandable = ({ event }: TimelineEntry): boolean => event.type === 'call' || (event.type === 'reminder' && triggerKind(event) !== undefined)

interface TimelineProps {
  readonly store: PanelStore
  /** One agent's rows, or every agent's (null). */
  readonly agent: AgentKey | null
}

/** The live log of calls, reminders, resets and requests, newest at the bottom. */
export function Timeline({ store, agent }: TimelineProps) {
  const view = store.timeline(agent)
  const listId = useId()
  // The keyboard's row, by index in the rows of one epoch: other rows (a filter, another agent) drop it.
  const [cursor, setCursor] = useState<{ readonly epoch: number; readonly row: number } | null>(null)
  const active = cursor !== null && cursor.epoch === view.epoch && cursor.row >= view.start && cursor.row < view.end ? cursor.row : undefined
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
  const rowId = (row: number) => `${listId}-row-${row}`
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      const entry = active === undefined ? undefined : view.entry(active)
      if (entry === undefined || !expandable(entry)) return
      event.preventDefault()
      return toggle(entry)
    }
    const to = movedTo(event.key, active, view.start, view.end - 1)
    if (to === undefined) return
    event.preventDefault()
    setCursor({ epoch: view.epoch, row: to })
  }
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
        role="listbox"
        active={active}
        containerAttributes={{
          tabIndex: 0,
          'aria-activedescendant': active === undefined ? undefined : rowId(active),
          onKeyDown,
          // A click puts the keyboard on the row clicked, so ↑/↓ go on from there.
          onClick: (event) => {
            const row = (event.target as Element).closest<HTMLElement>('[data-row]')?.dataset.row
            if (row !== undefined) setCursor({ epoch: view.epoch, row: Number(row) })
          },
        }}
        rowAttributes={(row) => {
          const entry = view.entry(row)
          return {
            role: 'option',
            id: rowId(row),
            'aria-selected': row === active,
            'aria-expanded': expandable(entry) ? expanded.has(entry) : undefined,
            'aria-label': timelineRowLabel(entry.event, agent === null ? labelOf(entry) : undefined),
          }
        }}
        renderRow={(row) => {
          const entry = view.entry(row)
          return (
            <TimelineRow
              entry={entry}
              agentLabel={agent === null ? labelOf(entry) : undefined}
              expanded={expanded.has(entry)}
              onToggle={toggle}
              inCycle={store.inCycle(entry)}
              similarCalls={store.similarCalls}
            />
          )
        }}
      />
    </>
  )
}
