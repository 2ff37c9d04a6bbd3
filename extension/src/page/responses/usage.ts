// The responses of LLM requests read for waste (docs/zero-code.md, "Waste"): while an opt-in
// detector is on, the response to a request of the four LLM APIs is read as the page reads it
// (watch.ts: never teed, never read ahead of the page), for the moment the page saw it and the
// tokens its `usage` says it cost. An agent-stream request's response is the stream reading's
// (agent-streams.ts); one response is never adopted twice. Part of the on-demand half.
import type { Analysed, WireAnalysis } from '../wire/analysis.ts'
import type { BodySink } from './body-watcher.ts'
import type { ResponseWatch } from './watch.ts'

/**
 * Follows the response of a request the analysis saw, one that may not be an agent stream's
 * (streams/recognise.ts said so first). The wire guard tells whether it is read at all, the
 * opt-in detectors first. Never throws.
 */
export function followUsage(analysis: WireAnalysis, response: Promise<Response>, analysed: Analysed, watch: ResponseWatch): void {
  try {
    const open = analysis.openResponse?.(analysed.text)
    if (open) watch.watch(response, open)
  } catch {
    // The page gets its response as the browser gives it; the calls it makes are timed when seen.
  }
}

/**
 * Both sinks fed the same text; the second may be absent. A sink that wants no more is ended at
 * once, as the body watcher ends a single one (body-watcher.ts), and hears nothing after.
 */
export function bothSinks(first: BodySink, second: BodySink | undefined): BodySink {
  if (!second) return first
  const open = new Set([first, second])
  const each = (run: (sink: BodySink) => void) => {
    const [one, other] = [...open]
    open.clear()
    try {
      if (one) run(one)
    } finally {
      if (other) run(other)
    }
  }
  return {
    chunk(text) {
      for (const sink of [...open]) {
        if (sink.chunk(text)) continue
        open.delete(sink)
        sink.end()
      }
      return open.size > 0
    },
    end: () => each((sink) => sink.end()),
    cut: () => each((sink) => sink.cut()),
    fail: (error) => each((sink) => sink.fail(error)),
  }
}
