import type { WasteCost } from '../store/waste-meter.ts'
import { count, formatDuration } from './format.ts'

/** A cost's figures as events and the store give them: either may be missing. */
type CostFigures = { readonly [K in keyof WasteCost]?: WasteCost[K] | undefined }

/** `12.3 s · 4,567 tokens`: what loops cost beyond their calls, each where some event carried it. */
export function wasteCostText({ ms, tokens }: CostFigures): string {
  return [ms === undefined ? '' : formatDuration(ms), tokens === undefined ? '' : count(tokens, 'token')].filter(Boolean).join(' · ')
}

/** An agent's waste in time and tokens, beside its *N wasted* calls (docs/panel.md, "Waste meter"). */
export function WasteCostBadge({ ms, tokens }: CostFigures) {
  if (ms === undefined && tokens === undefined) return null
  const text = wasteCostText({ ms, tokens })
  return (
    <span
      class="rtg-badge rtg-badge-warn"
      data-testid="agent-waste-cost"
      title={`${text}: the time from the first call of each reminded run to its last reminder or block, and the tokens the model spent on the calls of those runs after the first`}
    >
      {text}
    </span>
  )
}

/**
 * What one run had cost when its reminder or block came (`wasteMs`, `wasteTokens`), on that row;
 * nothing when the event carried neither (every opt-in detector off).
 */
export function RunCost({ wasteMs, wasteTokens }: { readonly wasteMs: number | undefined; readonly wasteTokens: number | undefined }) {
  if (wasteMs === undefined && wasteTokens === undefined) return null
  return (
    <span class="rtg-run-cost" data-testid="run-cost" title="What the run had cost by then: the time from its first call, and the tokens the model spent on its calls after the first">
      run cost {wasteCostText({ ms: wasteMs, tokens: wasteTokens })}
    </span>
  )
}
