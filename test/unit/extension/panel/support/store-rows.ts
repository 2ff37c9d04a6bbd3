// Reading the panel store's timeline in its tests: the rows of a view, the event types of an agent's rows.
import type { PanelStore } from '../../../../../extension/src/panel/store/panel-store.ts'
import type { TimelineEntry } from '../../../../../extension/src/panel/store/timeline-entry.ts'
import type { TimelineView } from '../../../../../extension/src/panel/store/timeline-view.ts'

export const GENTLE =
  'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.'

export function rows(view: TimelineView): TimelineEntry[] {
  const out: TimelineEntry[] = []
  for (let i = view.start; i < view.end; i++) out.push(view.entry(i))
  return out
}

export const types = (store: PanelStore, agent: string | null = null) => rows(store.timeline(agent)).map((e) => e.event.type)
