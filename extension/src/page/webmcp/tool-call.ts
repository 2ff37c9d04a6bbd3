// One invocation of a WebMCP tool, run through the frame's WebMCP agent. The page's own call (the
// tool's `execute`, or the browser's `executeTool`) runs exactly once, outside every try: what it
// returns or throws is the page's. A value comes back as it came or, in guard mode, as a new result
// with the due reminder appended; a promise (any thenable) comes back as a promise that settles the
// same way, after the call is counted; an error is thrown or rejected as the same object. Part of
// the start-up half: it only reaches the analysis (analysis.ts) when a tool is called.
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { ZeroCodeMode } from '../../protocol/zero-code-mode.ts'
import type { Outcome, ToolCall, WatchMode, WebMcpAnalysis } from './analysis.ts'
import type { ResultForm } from './result.ts'

export interface ToolCallHooks {
  /** The setting for this frame's origin, read on every call (it changes live from the panel). */
  readonly mode: () => ZeroCodeMode
  /** The analysis, asked for only once a tool is called in guard or observe mode. */
  readonly analysis: () => WebMcpAnalysis
  /** The page's Promise as it was at document_start. */
  readonly Promise: PromiseConstructor
  /** `Promise.prototype.then` as it was at document_start. */
  readonly then: typeof Promise.prototype.then
}

/** Reads the setting; if even that fails, the call is left alone. */
export function modeOf(hooks: ToolCallHooks): ZeroCodeMode {
  try {
    return hooks.mode()
  } catch {
    return 'off'
  }
}

/**
 * Runs `run`, the page's call, as one call of the WebMCP agent (`mode` is not `off`). `form` says
 * what its result is; a `json` call (`executeTool`) that throws at once was refused by the browser
 * before any tool ran, so it is not counted.
 */
export function callTool(hooks: ToolCallHooks, mode: WatchMode, call: ToolCall, form: ResultForm, run: () => unknown): unknown {
  let analysis: WebMcpAnalysis
  let refused: { readonly result: unknown } | undefined
  try {
    analysis = hooks.analysis()
    refused = analysis.refused(call, mode, form)
  } catch {
    return run()
  }
  if (refused) {
    const { result } = refused
    return form === 'json' ? new hooks.Promise((resolve) => resolve(result)) : result
  }

  let value: unknown
  try {
    value = run()
  } catch (error) {
    if (form === 'value') settle(analysis, call, { ok: false, error }, mode, form)
    throw error
  }
  let resolve!: (value: unknown) => void
  let reject!: (error: unknown) => void
  const settled = new hooks.Promise((ok, fail) => {
    resolve = ok
    reject = fail
  })
  const reactions = [
    (resolved: unknown) => resolve(settle(analysis, call, { ok: true, value: resolved }, mode, form)),
    (error: unknown) => {
      settle(analysis, call, { ok: false, error }, mode, form)
      reject(error)
    },
  ]
  try {
    // A promise is followed as the browser follows it, with the `then` of document_start: a page that
    // replaced Promise.prototype.then since is not called. Anything else throws here before any of it is read.
    callFunction(hooks.then, value, reactions)
    return settled
  } catch {
    // No promise: maybe a thenable.
  }
  const then = thenOf(value)
  if (then === undefined) return settle(analysis, call, { ok: true, value }, mode, form)
  try {
    callFunction(then, value, reactions)
  } catch (error) {
    reject(error)
  }
  return settled
}

/** What the agent gets; whatever goes wrong in the analysis, the value as it came. */
function settle(analysis: WebMcpAnalysis, call: ToolCall, outcome: Outcome, mode: WatchMode, form: ResultForm): unknown {
  try {
    return analysis.settled(call, outcome, mode, form)
  } catch {
    return outcome.ok ? outcome.value : undefined
  }
}

/** A thenable's `then`, read once (the browser would have read it once too); undefined for anything else. */
function thenOf(value: unknown): ((...args: unknown[]) => unknown) | undefined {
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return undefined
  try {
    const then = (value as { then?: unknown }).then
    return typeof then === 'function' ? (then as (...args: unknown[]) => unknown) : undefined
  } catch {
    return undefined
  }
}
