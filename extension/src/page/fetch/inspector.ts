// What the fetch interceptor does with a request that may be an LLM request (install.ts decides
// which ones): the wire guard's analysis, the body it may send instead, and the inspector events.
// Part of the page script's on-demand half: a page that never sends such a request never builds it.
import type { GuardConfig } from '../../../../engine/index.ts'
import { createWireGuard, type WireGuard, type WireInspection } from '../../../../engine/wire/index.ts'
import { errorText, headOf } from '../../../../engine/text.ts'
import { LIMITS, type AgentState, type InspectorEvent, type Withheld } from '../../protocol/events.ts'
import type { ZeroCodeMode } from '../../protocol/zero-code-mode.ts'
import type { Outgoing } from './outgoing.ts'
import { withheldReason } from './rewrite-policy.ts'
import { toAgentState, toInspectorEvent } from './to-inspector.ts'

interface FetchInspectorOptions {
  /** The request readers install.ts captured at document_start. */
  readonly outgoing: Outgoing
  /** The config in force, read on every request (it changes live from the panel). */
  readonly config: () => GuardConfig
  /** Inspector events for wire agents (`agent`, `call`, `reset`, `reminder`, `request`, `fault`). */
  readonly emit: (event: InspectorEvent) => void
  /**
   * Whether the page's own agent already reported this call through `window.__REPEAT_TOOL_GUARD__`
   * (recent calls, by tool and canonical arguments). A conversation whose calls the hook already saw
   * is the page's agent: the interceptor neither guards it again nor shows it as a wire agent.
   */
  readonly hookSaw: (tool: string, canonicalArguments: string) => boolean
  readonly now: () => number
  /** Conversations remembered at once (default 256); the one seen least recently is forgotten first. */
  readonly maxConversations?: number
}

/** What to send, and what to report once it is on its way. */
export interface Plan {
  readonly args: readonly unknown[]
  readonly after: () => void
}

/** What an analysed request is sent as, and where it comes from. */
export interface Analysed {
  readonly text: string
  readonly input: unknown
  readonly keepalive: boolean
  readonly mode: Exclude<ZeroCodeMode, 'off'>
}

export interface FetchInspector {
  /** The call with the body the wire guard made of `text`, if it changed it and may send it; else the call as it came. */
  plan(args: readonly unknown[], analysed: Analysed, withBody: (body: string) => readonly unknown[]): Plan
  /** The call as it came, and a fault reported once it is on its way. */
  failed(args: readonly unknown[], error: unknown): Plan
  /** The wire agents as they stand, for the `snapshot` a panel needs after a reconnect. */
  snapshot(): AgentState[]
}

export function createFetchInspector({ outgoing, config, emit, hookSaw, now, maxConversations }: FetchInspectorOptions): FetchInspector {
  let wire: WireGuard | undefined
  const wireGuard = (): WireGuard => (wire ??= createWireGuard({ hookSaw, ...(maxConversations === undefined ? {} : { maxConversations }) }))

  /** Reports after the request is on its way; the page's emit must not delay or fail a fetch. */
  function report(inspection: WireInspection | undefined, input: unknown, withheld: Withheld | undefined): void {
    if (!inspection) return
    let url: string
    try {
      url = outgoing.urlOf(input)
    } catch {
      url = ''
    }
    for (const event of inspection.events) {
      try {
        emit(toInspectorEvent(event, url, withheld))
      } catch {
        // A broken pipeline loses an event, never a request.
      }
    }
  }

  function fault(error: unknown): void {
    let message: string
    try {
      message = errorText(error)
    } catch {
      message = 'unreadable error'
    }
    try {
      emit({ type: 'fault', at: now(), message: headOf(`fetch interceptor: the request went out unchanged: ${message}`, LIMITS.text) })
    } catch {
      // Nowhere left to report to.
    }
  }

  const failed = (args: readonly unknown[], error: unknown): Plan => ({ args, after: () => fault(error) })

  return {
    plan(args, { text, input, keepalive, mode }, withBody) {
      try {
        const inspection = wireGuard().inspect(text, config())
        const body = inspection?.body
        const withheld = withheldReason(mode, keepalive, body)
        return { args: body === undefined || withheld !== undefined ? args : withBody(body), after: () => report(inspection, input, withheld) }
      } catch (error) {
        return failed(args, error)
      }
    },
    failed,
    snapshot: () => wire?.snapshot().map(toAgentState) ?? [],
  }
}
