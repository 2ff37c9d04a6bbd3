// Panel events produced the way the page produces them: a real engine guard, its events
// turned into panel events by the protocol's adapter.
import { createRepeatToolGuard, RECOMMENDED_CONFIG, type GuardConfigInput } from '../../../../../engine/index.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import { fromEngineEvent, snapshotEvent } from '../../../../../extension/src/protocol/from-engine.ts'
import type { TabBatch } from '../../../../../extension/src/protocol/messages.ts'

export interface RecordingPage {
  readonly guard: ReturnType<typeof createRepeatToolGuard>
  /** Events emitted since the last `take()`. */
  take(): PanelEvent[]
  /** The pending events as one batch from `frameId`. */
  batch(frameId?: number): TabBatch
  snapshot(at?: number): PanelEvent
}

export const PAGE_URL = 'http://127.0.0.1:8080/agent.html'
/** The page's origin, as the browser names the relay's sender. */
export const PAGE_ORIGIN = 'http://127.0.0.1:8080'

export function recordingPage(config: GuardConfigInput = RECOMMENDED_CONFIG): RecordingPage {
  const guard = createRepeatToolGuard(config)
  let pending: PanelEvent[] = []
  guard.subscribe((event) => pending.push(fromEngineEvent(event)))
  const page: RecordingPage = {
    guard,
    take() {
      const out = pending
      pending = []
      return out
    },
    batch: (frameId = 0) => ({ frameId, url: PAGE_URL, origin: PAGE_ORIGIN, events: page.take() }),
    snapshot: (at = Date.now()) => snapshotEvent(guard.snapshot(), guard.config, at),
  }
  return page
}

export function pageLoad(url = PAGE_URL, frameId = 0): TabBatch {
  return { frameId, url, origin: new URL(url).origin, events: [{ type: 'page-load', at: Date.now(), url }] }
}

/** Calls `tool` with `args` `times` times in a row for `agent`. */
export function repeat(page: RecordingPage, agent: object, tool: string, args: unknown, times: number): void {
  for (let i = 0; i < times; i++) page.guard.observe({ agent, name: tool, arguments: args })
}
