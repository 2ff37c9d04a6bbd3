import type { WasteCost } from '../store/waste-meter.ts'
import { count, formatDuration } from './format.ts'

/** `12.3 s · 4,567 tokens`: what loops cost beyond their calls, each where some event carried it. */
export function wasteCostText({ ms, tokens }: WasteCost): string {
  return [ms === undefined ? '' : formatDuration(ms), tokens === undefined ? '' : count(tokens, 'token')].filter(Boolean).join(' · ')
}

/** An agent's waste in time and tokens, beside its *N wasted* calls (docs/panel.md, "Waste meter"). */
export function WasteCostBadge({ ms, tokens }: WasteCost) {
  if (ms === undefined && tokens === undefined) return null
  return (
    <span
      class="rtg-badge rtg-badge-warn"
      data-testid="agent-waste-cost"
      title="Time from the first call of each reminded run to its last reminder or block, and the tokens the model spent on the calls of those runs after the first"
    >
      {wasteCostText({ ...(ms === undefined ? {} : { ms }), ...(tokens === undefined ? {} : { tokens }) })}
    </span>
  )
}
