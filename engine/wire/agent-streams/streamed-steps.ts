// The steps of a server's tool loop as its stream tells them, call by call: each call takes its
// place in its step when the stream first names it, gets its input, then its result. A call is
// observed once it and every call before it in its step have their results, so calls count in
// the order they were made, whatever order their results come in; a step boundary changes nothing
// in the count. A call with no result in the stream (a tool the page runs) is not observed here:
// the next request carries its result, and the request's walk observes its step.
import { stepKey } from '../history.ts'
import type { WireCall } from '../types.ts'

export interface StreamedSteps {
  /** The stream names call `id`, in step `step` (with its tool's name, when it says it). */
  begin(id: string, step: string, name?: string): void
  /** The call's input is whole. */
  input(id: string, name: string, args: unknown): void
  /** The call's result; the first one counts. */
  result(id: string, isError: boolean, content: unknown): void
  /** The call will never run on the agent's side: the user denied it, or the provider runs it. */
  drop(id: string): void
}

/**
 * Observes `calls`, the next calls of one step, as the seen item that step is; `index` is where
 * the step's first calls were put (undefined for its first ones). Returns where it put them.
 */
export type ObserveStreamed = (calls: readonly WireCall[], key: string, index: number | undefined) => number

interface StreamedCall {
  readonly id: string
  name?: string
  input?: { readonly args: unknown }
  result?: { readonly isError: boolean; readonly content: unknown }
}

interface Step {
  readonly calls: StreamedCall[]
  /** The calls observed so far, in order: the step's first `observed.length` calls. */
  readonly observed: WireCall[]
  index: number | undefined
}

export function createStreamedSteps(observe: ObserveStreamed): StreamedSteps {
  const steps = new Map<string, Step>()
  const calls = new Map<string, { readonly call: StreamedCall; readonly step: Step }>()

  function advance(step: Step): void {
    const ready: WireCall[] = []
    for (let i = step.observed.length; i < step.calls.length; i++) {
      const { id, name, input, result } = step.calls[i]!
      if (name === undefined || !input || !result) break
      ready.push({ id, name, arguments: input.args, isError: result.isError, content: result.content })
    }
    if (ready.length === 0) return
    step.observed.push(...ready)
    step.index = observe(ready, stepKey(step.observed), step.index)
  }

  function begin(id: string, stepName: string): { call: StreamedCall; step: Step } {
    const known = calls.get(id)
    if (known) return known
    let step = steps.get(stepName)
    if (!step) {
      step = { calls: [], observed: [], index: undefined }
      steps.set(stepName, step)
    }
    const entry = { call: { id }, step }
    step.calls.push(entry.call)
    calls.set(id, entry)
    return entry
  }

  return {
    begin(id, step, name) {
      const { call } = begin(id, step)
      if (name !== undefined) call.name ??= name
    },
    input(id, name, args) {
      const entry = calls.get(id)
      if (!entry || entry.call.input) return
      entry.call.name = name
      entry.call.input = { args }
      advance(entry.step)
    },
    result(id, isError, content) {
      const entry = calls.get(id)
      if (!entry || entry.call.result) return
      entry.call.result = { isError, content }
      advance(entry.step)
    },
    drop(id) {
      const entry = calls.get(id)
      if (!entry) return
      const at = entry.step.calls.indexOf(entry.call)
      // Once observed, a call stays counted.
      if (at < entry.step.observed.length) return
      entry.step.calls.splice(at, 1)
      calls.delete(id)
      advance(entry.step)
    },
  }
}
