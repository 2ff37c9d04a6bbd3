// Where the app already uses OpenTelemetry, every reminder and would-be block shows as an event
// on the span active when the request went out (docs/node.md, "OpenTelemetry"), so loops show in
// the collector a team already runs. The guard never starts a provider and never exports anything:
// with no provider registered, there is no active span to add to, and nothing happens.
import type { GuardEvents } from './guard-events.ts'

/** What the guard uses of `@opentelemetry/api`. */
export interface TraceApi {
  readonly trace: { getActiveSpan(): { addEvent(name: string, attributes: Record<string, string | number | boolean>): unknown } | undefined }
}

export const SPAN_EVENT = 'repeat_tool_guard.reminder'

/** `@opentelemetry/api` as the app has it; undefined when it has none. */
export async function loadTraceApi(load: () => Promise<unknown> = () => import('@opentelemetry/api')): Promise<TraceApi | undefined> {
  try {
    const api = (await load()) as Partial<TraceApi>
    return typeof api.trace?.getActiveSpan === 'function' ? (api as TraceApi) : undefined
  } catch {
    return undefined
  }
}

/** Adds the span events from now on; the function returned stops. */
export function addSpanEvents(events: GuardEvents, api: TraceApi): () => void {
  return events.subscribe((reported) => {
    if (reported.type !== 'wire') return
    const { event, observed } = reported
    if (event.type !== 'reminder' && event.type !== 'blocked') return
    api.trace.getActiveSpan()?.addEvent(SPAN_EVENT, {
      'gen_ai.tool.name': event.tool,
      'repeat_tool_guard.consecutive_calls': event.count,
      'repeat_tool_guard.level': event.type === 'blocked' ? 'block' : event.level,
      // Observe mode: the reminder was due, and the request went out without it.
      'repeat_tool_guard.inserted': event.type === 'reminder' && !observed,
    })
  })
}
