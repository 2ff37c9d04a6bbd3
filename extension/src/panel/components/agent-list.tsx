import './common-controls.css'
import './agent-list.css'
import { memo } from 'preact/compat'
import { useCallback, useId, useMemo, useRef, useState } from 'preact/hooks'
import type { AgentTreeRow } from '../store/agent-registry.ts'
import type { PanelStore } from '../store/panel-store.ts'
import { isServerFrame } from '../store/server-frames.ts'
import type { AgentKey, AgentRecord } from '../store/timeline-entry.ts'
import { WasteCostBadge } from './waste-cost.tsx'
import { count, formatNumber, preview } from './format.ts'
import { reachOf } from './reach.ts'
import { movedTo } from './list-keys.ts'
import { VirtualList } from './virtual-list.tsx'

interface AgentListProps {
  readonly store: PanelStore
  /** The selected agent; null selects every agent. */
  readonly selected: AgentKey | null
  readonly onSelect: (agent: AgentKey | null) => void
}

/** Fixed by the stylesheet (.rtg-agent-row), so rows are never measured. */
const ROW_HEIGHT = 22

/** Every agent seen, subagents under their parent, each with its current run. */
export function AgentList({ store, selected, onSelect }: AgentListProps) {
  const tree = store.agents()
  const [collapsed, setCollapsed] = useState<ReadonlySet<AgentKey>>(new Set())
  // A new epoch whenever the visible rows change, so the virtual list re-reads them.
  const epochs = useRef(0)
  const rows = useMemo(() => {
    epochs.current += 1
    return visibleRows(tree, collapsed)
  }, [tree, collapsed])
  const toggle = useCallback(
    (key: AgentKey) =>
      setCollapsed((current) => {
        const next = new Set(current)
        if (!next.delete(key)) next.add(key)
        return next
      }),
    [],
  )
  const total = tree.reduce((sum, row) => sum + row.record.calls, 0)
  const treeId = useId()
  const allId = `${treeId}-all`
  const rowId = (i: number) => `${treeId}-row-${i}`
  // The keyboard's row is the selection, as in DevTools' lists: -1 is "All agents".
  const at = selected === null ? -1 : rows.findIndex((row) => row.record.key === selected)
  const onKeyDown = (event: KeyboardEvent) => {
    const row = rows[at]
    const expandable = row !== undefined && row.children > 0
    if (event.key === 'ArrowRight' && expandable) {
      event.preventDefault()
      // Unfold, or step onto the first subagent of an unfolded agent.
      if (collapsed.has(row.record.key)) toggle(row.record.key)
      else onSelect(rows[at + 1]!.record.key)
      return
    }
    if (event.key === 'ArrowLeft' && row !== undefined) {
      event.preventDefault()
      if (expandable && !collapsed.has(row.record.key)) return toggle(row.record.key)
      // Step up to the parent: the nearest row above that sits one level higher.
      for (let i = at - 1; i >= 0; i--) if (rows[i]!.depth < row.depth) return onSelect(rows[i]!.record.key)
      return
    }
    const to = movedTo(event.key, at, -1, rows.length - 1)
    if (to === undefined) return
    event.preventDefault()
    onSelect(to === -1 ? null : rows[to]!.record.key)
  }

  return (
    <div class="rtg-agents" data-testid="agent-list" role="tree" aria-label="Agents" tabIndex={0} aria-activedescendant={at === -1 ? allId : rowId(at)} onKeyDown={onKeyDown}>
      <div class="rtg-agents-head" role="presentation">
        <span>Agent</span>
        <span>Current run</span>
        <span class="rtg-num" title="Identical calls in a row">
          Run
        </span>
        <span class="rtg-num" title="The threshold the run reaches next">
          Next
        </span>
        <span class="rtg-num" title="Calls recorded">
          Calls
        </span>
      </div>
      <div
        id={allId}
        class={`rtg-agent-row rtg-all${selected === null ? ' rtg-selected' : ''}`}
        data-testid="agent-all"
        role="treeitem"
        aria-level={1}
        aria-selected={selected === null}
        aria-label={`All agents, ${count(total, 'call')}`}
        onClick={() => onSelect(null)}
      >
        <span class="rtg-agent-name">All agents</span>
        <span />
        <span />
        <span />
        <span class="rtg-num">{formatNumber(total)}</span>
      </div>
      {tree.length === 0 ? (
        <p class="rtg-empty-small">No agents yet.</p>
      ) : (
        <VirtualList
          epoch={epochs.current}
          start={0}
          end={rows.length}
          estimate={() => ROW_HEIGHT}
          fixed={() => true}
          label="Agents"
          role="none"
          active={at === -1 ? undefined : at}
          rowAttributes={(i) => {
            const row = rows[i]!
            return {
              role: 'treeitem',
              id: rowId(i),
              'aria-level': row.depth + 1,
              'aria-selected': selected === row.record.key,
              'aria-expanded': row.children > 0 ? !collapsed.has(row.record.key) : undefined,
              'aria-label': agentLabel(row.record),
            }
          }}
          renderRow={(i) => {
            const row = rows[i]!
            const key = row.record.key
            return (
              <AgentRow
                record={row.record}
                rev={row.record.rev}
                {...wasteProps(store, row.record)}
                depth={row.depth}
                subagents={row.children}
                current={store.isCurrent(row.record)}
                frame={frameBadge(store, row.record.frameId)}
                selected={selected === key}
                collapsed={collapsed.has(key)}
                onSelect={onSelect}
                onToggle={toggle}
              />
            )
          }}
        />
      )}
    </div>
  )
}

function wasteProps(store: PanelStore, record: AgentRecord): { wasteMs: number | undefined; wasteTokens: number | undefined } {
  const { ms, tokens } = store.wasteOf(record)
  return { wasteMs: ms, wasteTokens: tokens }
}

/** The row read as one sentence: the agent, its kind and its current run. */
function agentLabel(record: AgentRecord): string {
  const { label, kind: kindOnly, reach } = record.descriptor
  const kind = reach === undefined ? kindOnly : `${kindOnly} via ${reach}`
  const run = record.tool === undefined ? 'no call yet' : `run: ${record.tool} ${preview(record.args ?? '', 80)} × ${record.count}`
  const next = record.nextThreshold === null ? '' : `, next reminder at ${record.nextThreshold}`
  return `${label}, ${kind}, ${run}${next}, ${count(record.calls, 'call')}`
}

function visibleRows(tree: readonly AgentTreeRow[], collapsed: ReadonlySet<AgentKey>): AgentTreeRow[] {
  const out: AgentTreeRow[] = []
  let hiddenBelow = Number.POSITIVE_INFINITY
  for (const row of tree) {
    if (row.depth > hiddenBelow) continue
    hiddenBelow = collapsed.has(row.record.key) ? row.depth : Number.POSITIVE_INFINITY
    out.push(row)
  }
  return out
}

interface AgentRowProps {
  readonly record: AgentRecord
  /** The record is mutated in place; its revision tells the row to redraw. */
  readonly rev: number
  /** What the agent's reminded runs cost in time and tokens (passed as numbers, so the row redraws only on a change). */
  readonly wasteMs: number | undefined
  readonly wasteTokens: number | undefined
  readonly depth: number
  readonly subagents: number
  readonly current: boolean
  /** Where the agent runs, when not in the top frame: a subframe, or a Node process. */
  readonly frame: string | undefined
  readonly selected: boolean
  readonly collapsed: boolean
  readonly onSelect: (agent: AgentKey) => void
  readonly onToggle: (agent: AgentKey) => void
}

/** A subframe's number, or the Node process's line (docs/node-bridge.md, "In the panel"). */
function frameBadge(store: PanelStore, frameId: number): string | undefined {
  if (frameId === 0) return undefined
  return isServerFrame(frameId) ? (store.frameUrl(frameId) ?? 'server') : `frame ${frameId}`
}

const AgentRow = memo(function AgentRow({ record, wasteMs, wasteTokens, depth, subagents, current, frame, selected, collapsed, onSelect, onToggle }: AgentRowProps) {
  const { descriptor } = record
  const reach = reachOf(descriptor)
  const classes = ['rtg-agent-row', selected ? 'rtg-selected' : '', current ? '' : 'rtg-stale'].filter(Boolean).join(' ')
  return (
    <div class={classes} data-testid="agent-row" data-agent={record.key} onClick={() => onSelect(record.key)} title={current ? undefined : 'From an earlier page load (kept by Preserve log)'}>
      <span class="rtg-agent-name" style={{ paddingLeft: `${depth * 14}px` }}>
        {subagents > 0 ? (
          <span
            class="rtg-twisty"
            role="button"
            aria-label={collapsed ? 'Show subagents' : 'Hide subagents'}
            aria-expanded={!collapsed}
            onClick={(event) => {
              event.stopPropagation()
              onToggle(record.key)
            }}
          >
            {collapsed ? '▸' : '▾'}
          </span>
        ) : (
          <span class="rtg-twisty" />
        )}
        <span class="rtg-agent-label" data-testid="agent-label" title={descriptor.label}>
          {descriptor.label}
        </span>
        <span class="rtg-agent-badges">
          <span class={`rtg-badge rtg-kind-${descriptor.kind}`} data-testid="agent-kind" title={reach.title}>
            {descriptor.kind}
          </span>
          {descriptor.reach !== undefined && (
            <span class="rtg-badge rtg-badge-muted" data-testid="agent-reach" title={reach.title}>
              {reach.text}
            </span>
          )}
          {frame !== undefined && (
            <span class="rtg-badge rtg-badge-muted" data-testid="agent-frame">
              {frame}
            </span>
          )}
          {record.wasted > 0 && (
            <span
              class="rtg-badge rtg-badge-warn"
              data-testid="agent-wasted"
              title={`${formatNumber(record.wasted)} wasted: of its recorded calls, those spent inside runs or cycles that reached a reminder, calls that went into a loop the guard caught`}
            >
              {formatNumber(record.wasted)} wasted
            </span>
          )}
          <WasteCostBadge ms={wasteMs} tokens={wasteTokens} />
          {record.loopSpent > 0 && (
            <span
              class="rtg-badge rtg-badge-warn"
              data-testid="agent-loop-spent"
              title={`${formatNumber(record.loopSpent)} in server loop: calls the server's tool loop made after a reminder fell due inside it that the page could not give (would remind), the calls of that run from its first would-remind on`}
            >
              {formatNumber(record.loopSpent)} in server loop
            </span>
          )}
        </span>
      </span>
      <span class="rtg-agent-chain mono" data-testid="agent-chain" title={record.tool === undefined ? undefined : `${record.tool} ${record.args ?? ''}`}>
        {record.tool === undefined ? '' : `${record.tool} ${preview(record.args ?? '', 80)}`}
      </span>
      <span class="rtg-num" data-testid="agent-count">
        {record.count}
      </span>
      <span class="rtg-num" data-testid="agent-next">
        {record.nextThreshold ?? '—'}
      </span>
      <span class="rtg-num">{formatNumber(record.calls)}</span>
    </div>
  )
})
