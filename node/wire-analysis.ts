// What the registered fetch does with a request that may be an LLM request: the wire guard's
// analysis, the body it may send instead, and the events, reported once the request is on its
// way. The wire guard is built by the first such request.
import type { GuardConfig } from '../engine/index.ts'
import { errorText } from '../engine/safe-reading.ts'
import { createWireGuard, type WireGuard, type WireInspection } from '../engine/wire/index.ts'
import type { GuardEvents } from './guard-events.ts'

/** What to send, and what to report once it is on its way. */
export interface Plan {
  readonly args: readonly unknown[]
  readonly after: () => void
}

/** How a request is inspected, when not as a whole conversation in its text. */
export type Inspect = (wire: WireGuard, config: GuardConfig) => WireInspection | undefined

export interface WireAnalysis {
  /** The call with the body the wire guard made of `text` if it changed it and may send it; else the call as it came. */
  plan(args: readonly unknown[], text: string, url: string, withBody: (body: string) => readonly unknown[], inspect?: Inspect): Plan
  /** The call as it came, and a fault reported once it is on its way. */
  failed(args: readonly unknown[], error: unknown): Plan
  /** Reports a fault of the guard's that no request carries. */
  fault(message: string): void
}

interface WireAnalysisOptions {
  /** Observe: analysed and reported, sent as the app made it. */
  readonly observe: boolean
  /** The config in force, read on every request. */
  readonly config: () => GuardConfig
  readonly events: GuardEvents
}

export function createWireAnalysis({ observe, config, events }: WireAnalysisOptions): WireAnalysis {
  let wire: WireGuard | undefined

  function report(inspection: WireInspection | undefined, url: string): void {
    for (const event of inspection?.events ?? []) events.emit({ type: 'wire', url, observed: observe, event })
  }

  const fault = (message: string): void => events.emit({ type: 'fault', at: Date.now(), message })
  const failed = (args: readonly unknown[], error: unknown): Plan => ({ args, after: () => fault(`fetch interceptor: the request went out unchanged: ${errorText(error)}`) })

  return {
    plan(args, text, url, withBody, inspect) {
      try {
        const guard = (wire ??= createWireGuard())
        const inspection = inspect ? inspect(guard, config()) : guard.inspect(text, config())
        const body = observe ? undefined : inspection?.body
        return { args: body === undefined ? args : withBody(body), after: () => report(inspection, url) }
      } catch (error) {
        return failed(args, error)
      }
    },
    failed,
    fault,
  }
}
