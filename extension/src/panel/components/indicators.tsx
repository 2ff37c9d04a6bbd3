import './common-controls.css'
import './indicators.css'
import { useState } from 'preact/hooks'
import type { DropCounts, DropReason } from '../../protocol/messages.ts'
import type { FaultRecord } from '../store/fault-record.ts'
import { clockTime, count, DROP_REASONS, formatNumber } from './format.ts'

/** "N messages dropped", with the reasons one click away. Hidden while nothing was dropped. */
export function DropsIndicator({ drops }: { drops: DropCounts }) {
  const [open, setOpen] = useState(false)
  const reasons = (Object.entries(drops) as [DropReason, number][]).filter(([, n]) => n > 0)
  const total = reasons.reduce((sum, [, n]) => sum + n, 0)
  if (total === 0) return null
  return (
    <div class="rtg-indicator">
      <button type="button" class="rtg-tool-button rtg-warn-text" data-testid="drops" aria-expanded={open} onClick={() => setOpen(!open)} title="Messages refused on their way to this panel">
        ⚠ {count(total, 'message')} dropped
      </button>
      {open && (
        <div class="rtg-popover" role="dialog" aria-label="Dropped messages" data-testid="drops-detail">
          <p class="rtg-note">Every hop checks what it receives; these failed the check and were dropped.</p>
          <ul>
            {reasons.map(([reason, n]) => (
              <li key={reason}>
                <b>{formatNumber(n)}</b> {DROP_REASONS[reason]} <span class="rtg-muted">({reason})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

/** Guard faults reported by the page: its tool calls went on, the guard stepped aside. */
export function FaultsIndicator({ faults }: { faults: readonly FaultRecord[] }) {
  const [open, setOpen] = useState(false)
  if (faults.length === 0) return null
  return (
    <div class="rtg-indicator">
      <button type="button" class="rtg-tool-button rtg-error-text" data-testid="faults" aria-expanded={open} onClick={() => setOpen(!open)}>
        ✖ {count(faults.length, 'fault')}
      </button>
      {open && (
        <div class="rtg-popover" role="dialog" aria-label="Guard faults" data-testid="faults-detail">
          <p class="rtg-note">The guard failed internally; the page's tool calls went on unchanged.</p>
          <ul>
            {faults.map((fault, i) => (
              <li key={i}>
                <span class="rtg-time">{clockTime(fault.at)}</span>
                {fault.frameId !== 0 && <span class="rtg-muted"> frame {fault.frameId}</span>} <span class="mono">{fault.message}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
