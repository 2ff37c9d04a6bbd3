import './common-controls.css'
import './chain-view.css'
import './timeline-row.css'
import type { GuardConfig } from '../../../../engine/index.ts'
import type { AgentRecord } from '../store/timeline-entry.ts'
import { CycleBlock } from './cycle-block.tsx'
import { preview } from './format.ts'

/** Beyond this many calls the track is drawn compressed: one cell per call would not fit. */
const MAX_CELLS = 24

/** The agent's current run drawn against the thresholds: one cell per identical call in a row. */
export function ChainView({ agent, config }: { agent: AgentRecord; config: GuardConfig }) {
  const { thresholds } = config
  const highest = thresholds[thresholds.length - 1] ?? 0
  const span = Math.max(highest, agent.count)
  const scale = span > MAX_CELLS ? span / MAX_CELLS : 1
  const cells = Math.ceil(span / scale)
  const track = []
  for (let cell = 1; cell <= cells; cell++) {
    const upTo = Math.round(cell * scale)
    const mark = thresholds.find((t) => t > Math.round((cell - 1) * scale) && t <= upTo)
    const level = mark === undefined ? '' : mark === thresholds[0] ? 'gentle' : 'detailed'
    const filled = upTo <= agent.count
    track.push(
      <div key={cell} class={`rtg-cell${filled ? ' rtg-filled' : ''}${level ? ` rtg-mark rtg-mark-${level}` : ''}${filled && level ? ' rtg-fired' : ''}`}>
        {mark !== undefined && <span class="rtg-mark-label">{mark}</span>}
      </div>,
    )
  }
  return (
    <section class="rtg-chain" data-testid="chain-view" aria-label="Current run against the thresholds">
      <div class="rtg-chain-head">
        {agent.tool === undefined ? (
          <span class="rtg-muted">No run yet: the next tracked call starts one.</span>
        ) : (
          <>
            <span class="rtg-tool">{agent.tool}</span>
            <span class="rtg-args-preview mono" title={agent.args}>
              {agent.args === undefined ? '' : preview(agent.args, 120)}
            </span>
          </>
        )}
      </div>
      <div class="rtg-track" role="meter" aria-valuemin={0} aria-valuemax={highest} aria-valuenow={agent.count} aria-label={`Run of ${agent.count}`}>
        {track}
      </div>
      <p class="rtg-chain-caption" data-testid="chain-caption">
        {caption(agent, thresholds)}
      </p>
      {agent.cycle && <CycleBlock cycle={agent.cycle} />}
    </section>
  )
}

function caption(agent: AgentRecord, thresholds: readonly number[]): string {
  if (agent.count === 0) return `No run in progress: a reminder fires at ${thresholds[0]} identical calls in a row.`
  const run = `Run of ${agent.count} identical call${agent.count === 1 ? '' : 's'}`
  if (agent.nextThreshold === null) return `${run}: past the highest threshold (${thresholds[thresholds.length - 1]}), the guard stays silent until the call changes.`
  const level = agent.nextThreshold === thresholds[0] ? 'gentle' : 'detailed'
  const left = agent.nextThreshold - agent.count
  return `${run}. Next reminder (${level}) at ${agent.nextThreshold}: ${left} more identical call${left === 1 ? '' : 's'}.`
}
