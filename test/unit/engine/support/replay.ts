// A recorded run replayed as the panel's what-if replays it: each `call` event's canonical
// arguments as the arguments, and its `result` (what the run compared) as the result's content.
import { createRepeatToolGuard, type GuardConfigInput, type GuardEvent } from '../../../../engine/index.ts'
import { ofType, recordEvents } from './events.ts'

/** The count of each call when the recorded calls are replayed through a fresh guard running `config`. */
export function replayedCounts(events: readonly GuardEvent[], config: GuardConfigInput): number[] {
  const guard = createRepeatToolGuard(config)
  const replayed = recordEvents(guard)
  const agent = {}
  for (const { tool, canonicalArguments, isError, denied, result } of ofType(events, 'call'))
    guard.observe({ agent, name: tool, arguments: canonicalArguments }, result === undefined ? { isError, denied } : { isError, denied, content: result })
  return ofType(replayed, 'call').map((e) => e.count)
}
