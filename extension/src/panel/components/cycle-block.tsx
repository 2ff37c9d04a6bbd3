import './common-controls.css'
import './cycle-block.css'
import type { CycleMark } from '../store/timeline-entry.ts'

/** Periods drawn in full; past this the rest is a count (a cycle reminds at most at 3 × repeats). */
const MAX_PERIODS = 6

/** A cycle the guard reminded about, drawn as its block of calls repeated once per completed period. */
export function CycleBlock({ cycle }: { cycle: CycleMark }) {
  const shown = Math.min(cycle.periods, MAX_PERIODS)
  return (
    <div class="rtg-cycle-view" data-testid="cycle-view">
      <p class="rtg-chain-caption">
        Cycle of {cycle.tools.length} calls, repeated {cycle.periods} times (calls #{cycle.fromSeq} to #{cycle.toSeq}):
      </p>
      <div class="rtg-cycle" role="list" aria-label={`The cycle ${cycle.tools.join(' -> ')}, ${cycle.periods} times`}>
        {Array.from({ length: shown }, (_, period) => (
          <div class="rtg-cycle-period" role="listitem" key={period} data-testid="cycle-period">
            {cycle.tools.map((tool, i) => (
              <span class="rtg-cycle-call" key={i}>
                {tool}
              </span>
            ))}
          </div>
        ))}
        {cycle.periods > shown && <span class="rtg-muted">+{cycle.periods - shown} more</span>}
      </div>
    </div>
  )
}
