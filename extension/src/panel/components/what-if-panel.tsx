import './common-controls.css'
import './timeline-row.css'
import './what-if-panel.css'
import { useMemo, useRef, useState } from 'preact/hooks'
import type { GuardConfig } from '../../../../engine/index.ts'
import { LIMITS } from '../../protocol/events.ts'
import type { PanelStore } from '../store/panel-store.ts'
import type { WhatIfReminder, WhatIfReport, WhatIfRow } from '../store/what-if.ts'
import { ConfigEditor } from './config-editor.tsx'
import type { ConfigSink } from './config-sink.ts'
import { EmptyState } from './empty-state.tsx'
import { count, preview } from './format.ts'
import { VirtualList } from './virtual-list.tsx'

const CHANGE_LABELS: Readonly<Record<WhatIfRow['change'], string>> = {
  same: 'same',
  added: 'would fire',
  removed: 'would not fire',
  changed: 'different',
}

/** The What-if tab: the recorded calls replayed through a fresh guard with an edited config. */
export function WhatIfPanel({ store, sink }: { store: PanelStore; sink: ConfigSink }) {
  const [report, setReport] = useState<WhatIfReport | null>(null)
  const [onlyChanges, setOnlyChanges] = useState(true)
  // The draft lives here only: replaying never touches the page or the saved config.
  const draft = useMemo(() => {
    let config: GuardConfig = store.config() ?? sink.current()
    const replay: ConfigSink = {
      current: () => config,
      apply: async (next) => {
        config = next
        setReport(store.whatIf(next))
      },
    }
    return replay
  }, [store, sink])

  return (
    <div class="rtg-pane-scroll rtg-what-if">
      <section aria-labelledby="rtg-what-if-config">
        <h2 id="rtg-what-if-config" class="rtg-heading">
          Replay the recorded calls with another config
        </h2>
        <ConfigEditor
          sink={draft}
          applyLabel="Replay"
          appliedMessage="Replayed."
          applyUnchanged
          testId="what-if-editor"
          hint="Nothing is sent to the page: the calls recorded in this panel run, in order, through a fresh guard with this config."
        />
      </section>
      {report === null ? null : (
        <section class="rtg-what-if-result" data-testid="what-if-result" aria-labelledby="rtg-what-if-summary">
          <h2 id="rtg-what-if-summary" class="rtg-heading">
            Result
          </h2>
          <Summary report={report} discarded={store.stats().discarded} />
          <label class="rtg-check">
            <input type="checkbox" checked={onlyChanges} onChange={(event) => setOnlyChanges(event.currentTarget.checked)} />
            Only differences
          </label>
          <Rows store={store} report={report} onlyChanges={onlyChanges} />
        </section>
      )}
    </div>
  )
}

function Summary({ report, discarded }: { report: WhatIfReport; discarded: number }) {
  const { totals } = report
  return (
    <div class="rtg-what-if-summary" data-testid="what-if-summary">
      <p>
        Replayed {count(report.calls, 'call')}: {count(totals.recorded, 'reminder')} fired, {count(totals.replayed, 'reminder')} would fire with this config.
      </p>
      <p class="rtg-what-if-totals">
        <span class="rtg-change rtg-change-same">{totals.same} same</span>
        <span class="rtg-change rtg-change-added">{totals.added} would fire</span>
        <span class="rtg-change rtg-change-removed">{totals.removed} would not fire</span>
        <span class="rtg-change rtg-change-changed">{totals.changed} different</span>
      </p>
      {discarded > 0 && <p class="rtg-note">The oldest {count(discarded, 'row')} are no longer in the panel, so early runs may start mid-way.</p>}
      {report.sanitized && (
        <p class="rtg-note" data-testid="what-if-sanitized">
          This session was exported sanitized: arguments and results are their length and a hash. Equal arguments have equal hashes, so repeats, same-tool runs and cycles replay as recorded; a result
          is compared whole (<code class="mono">ignoreResultKeys</code> cannot look inside it), and reminders by level and count (their texts quote the arguments).
        </p>
      )}
      <AnswersNote report={report} />
      {report.clippedArgs > 0 && (
        <p class="rtg-note">
          {count(report.clippedArgs, 'call')} had arguments longer than {LIMITS.args.toLocaleString('en-US')} characters: they are compared by their first {LIMITS.args.toLocaleString('en-US')}{' '}
          characters and their length.
        </p>
      )}
    </div>
  )
}

function Rows({ store, report, onlyChanges }: { store: PanelStore; report: WhatIfReport; onlyChanges: boolean }) {
  const epochs = useRef(0)
  const [open, setOpen] = useState<WhatIfRow | null>(null)
  const rows = useMemo(() => {
    epochs.current += 1
    return onlyChanges ? report.rows.filter((row) => row.change !== 'same') : report.rows
  }, [report, onlyChanges])
  if (rows.length === 0) return <EmptyState title={report.rows.length === 0 ? 'No reminder fired or would fire.' : 'No differences: this config fires the same reminders.'} />
  return (
    <VirtualList
      epoch={epochs.current}
      start={0}
      end={rows.length}
      estimate={(i) => (rows[i] === open ? 200 : 22)}
      fixed={(i) => rows[i] !== open}
      label="Reminders, recorded and replayed"
      testId="what-if-rows"
      renderRow={(i) => {
        const row = rows[i]!
        const expanded = row === open
        return (
          <div class={`rtg-what-if-row rtg-change-${row.change}`} data-testid="what-if-row" data-change={row.change}>
            <button type="button" class="rtg-row-line" aria-expanded={expanded} onClick={() => setOpen(expanded ? null : row)}>
              <span class="rtg-row-agent">{store.agent(row.agent)?.descriptor.label ?? row.agent}</span>
              <span class="rtg-seq">#{row.seq}</span>
              <span class="rtg-tool">{row.tool}</span>
              <span class="rtg-args-preview mono">{preview(row.args, 80)}</span>
              <span class="rtg-level">{describe(row.recorded)}</span>
              <span class="rtg-arrow">→</span>
              <span class="rtg-level">{describe(row.replayed)}</span>
              <span class={`rtg-change rtg-change-${row.change}`}>{CHANGE_LABELS[row.change]}</span>
            </button>
            {expanded && (
              <div class="rtg-what-if-texts">
                <ReminderText title="Fired" reminder={row.recorded} />
                <ReminderText title="Would fire" reminder={row.replayed} />
              </div>
            )}
          </div>
        )
      }}
    />
  )
}

/** `repeatedText` reads the model's answers (zero-code mode), which the rows do not hold. */
function AnswersNote({ report }: { report: WhatIfReport }) {
  const left = report.answersNotReplayed
  if (left === 0 && !('repeatedText' in report.config)) return null
  return (
    <p class="rtg-note" data-testid="what-if-answers">
      Repeated answers (<code class="mono">repeatedText</code>, zero-code mode only) are not replayed: they count the model's answers, and the panel records calls, not answers.
      {left > 0 && ` ${count(left, 'repeated-answer reminder')} recorded ${left === 1 ? 'is' : 'are'} left out of the comparison.`}
    </p>
  )
}

function describe(reminder: WhatIfReminder | undefined): string {
  return reminder === undefined ? '—' : `${reminder.level} ×${reminder.count}`
}

function ReminderText({ title, reminder }: { title: string; reminder: WhatIfReminder | undefined }) {
  return (
    <div>
      <p class="rtg-label">{title}</p>
      {reminder === undefined ? <p class="rtg-muted">nothing</p> : <pre class="rtg-pre rtg-reminder-text mono">{reminder.text}</pre>}
    </div>
  )
}
