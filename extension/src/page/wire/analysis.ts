// What zero-code mode does with a request that may be an LLM request, whatever carried it (each
// transport's hook, fetch/ or xhr/, decides which ones): the wire guard's analysis, the body it may
// send instead, and the panel events, each agent marked with the transport that reached it.
// Part of the page script's on-demand half: a page that never sends such a request never builds it.
import type { GuardConfig } from '../../../../engine/index.ts'
import {
  createWireGuard,
  type ResponseReading,
  type AgentStreamProtocol,
  type RealtimeProtocol,
  type RealtimeSession,
  type WireEvent,
  type WireGuard,
  type WireInspection,
} from '../../../../engine/wire/index.ts'
import { errorText, headOf } from '../../../../engine/safe-reading.ts'
import { LIMITS, type AgentReach, type AgentState, type PanelEvent, type Withheld } from '../../protocol/events.ts'
import type { ZeroCodeMode } from '../../protocol/zero-code-mode.ts'
import type { BodySink } from '../responses/body-watcher.ts'
import { withheldReason } from './rewrite-policy.ts'
import { reachOfFormat, STREAM_REACH, toAgentState, toPanelEvent } from '../../protocol/from-wire.ts'

interface WireAnalysisOptions {
  /** The config in force, read on every request (it changes live from the panel). */
  readonly config: () => GuardConfig
  /** Panel events for wire agents (`agent`, `call`, `reset`, `reminder`, `request`, `fault`). */
  readonly emit: (event: PanelEvent) => void
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

/** Wire agents whose transport is remembered: four times the wire guard's default conversations. */
const REACHES_KEPT = 1_024

/** What to send, and what to report once it is on its way. */
export interface Plan {
  readonly args: readonly unknown[]
  readonly after: () => void
}

/** What an analysed request is sent as, and where it comes from. */
export interface Analysed {
  readonly text: string
  /** The request's absolute URL, asked for only once there is something to report. */
  readonly url: () => string
  readonly keepalive: boolean
  readonly mode: Exclude<ZeroCodeMode, 'off'>
  /** The transport that carried the request: an agent first seen in it is shown as reached by it. */
  readonly reach: AgentReach
}

/** How a request is inspected, when not as a whole conversation in `text` (the wire guard's `inspect`). */
export type Inspect = (wire: WireGuard, config: GuardConfig) => WireInspection | undefined

/** A response of an agent event stream being read as the page reads it; its events reach the panel as they come. Never throws. */
export interface StreamReport {
  push(text: string): void
  /** `cut`: the page stopped reading (or the body failed) before its end: the run ends there. */
  end(cut: boolean): void
}

/** One realtime session's messages, read as they pass (docs/zero-code.md, "Realtime sessions"). Never throws. */
export interface RealtimeLink {
  /** A text message the server sent. */
  received(text: string): void
  /** A text message the page sent, already on its way: the messages to send right after it (none in observe mode). */
  sent(text: string, mode: Exclude<ZeroCodeMode, 'off'>): readonly string[]
}

const NO_MESSAGES: readonly string[] = []

export interface WireAnalysis {
  /** The call with the body the wire guard made of `text`, if it changed it and may send it; else the call as it came. */
  plan(args: readonly unknown[], analysed: Analysed, withBody: (body: string) => readonly unknown[], inspect?: Inspect): Plan
  /** The call as it came, and a fault reported once it is on its way (`reach`: the transport it took). */
  failed(args: readonly unknown[], error: unknown, reach: AgentReach): Plan
  /**
   * The reading of a response that speaks `protocol`, to the request whose body is `text`; undefined
   * when the wire guard does not read it (the request is not that protocol's). Never throws.
   */
  openStream(text: string, protocol: AgentStreamProtocol, url: () => string): StreamReport | undefined
  /** The reading of a connection to `address` that may be a realtime session of `protocol`, reached through `reach`. */
  openRealtime(protocol: RealtimeProtocol, address: string, reach: AgentReach): RealtimeLink
  /**
   * The sink to read the response to the request whose body is `text` with, as the page reads it,
   * for the time and tokens of what it makes (docs/zero-code.md, "Waste"); undefined when it is not
   * read (no opt-in detector on, not an LLM request). Never throws.
   */
  openResponse?(text: string): (() => BodySink) | undefined
  /** The wire agents as they stand, for the `snapshot` a panel needs after a reconnect. */
  snapshot(): AgentState[]
}

export function createWireAnalysis({ config, emit, hookSaw, now, maxConversations }: WireAnalysisOptions): WireAnalysis {
  let wire: WireGuard | undefined
  const wireGuard = (): WireGuard => (wire ??= createWireGuard({ hookSaw, ...(maxConversations === undefined ? {} : { maxConversations }) }))
  /** How each wire agent was first reached (by its wire id), for its `agent` event and snapshots. */
  const reachOf = new Map<number, AgentReach>()
  function remember(agentId: number, reach: AgentReach): void {
    reachOf.set(agentId, reach)
    // The wire guard forgets the least recent conversations; ids only grow, so the oldest go first.
    if (reachOf.size > REACHES_KEPT) reachOf.delete(reachOf.keys().next().value!)
  }

  /** Reports after the request is on its way; the page's emit must not delay or fail a fetch. */
  function report(events: readonly WireEvent[], address: () => string, reach: AgentReach, withheld: Withheld | undefined): void {
    if (events.length === 0) return
    let url: string
    try {
      url = address()
    } catch {
      url = ''
    }
    for (const event of events) {
      try {
        if (event.type === 'agent') remember(event.agentId, reachOfFormat(event.format, reach))
        emit(toPanelEvent(event, url, withheld, reachOf.get(event.agentId)))
      } catch {
        // A broken pipeline loses an event, never a request.
      }
    }
  }

  function fault(error: unknown, reach: AgentReach): void {
    let message: string
    try {
      message = errorText(error)
    } catch {
      message = 'unreadable error'
    }
    try {
      emit({ type: 'fault', at: now(), message: headOf(`${reach} interceptor: the request went out unchanged: ${message}`, LIMITS.text) })
    } catch {
      // Nowhere left to report to.
    }
  }

  const failed = (args: readonly unknown[], error: unknown, reach: AgentReach): Plan => ({ args, after: () => fault(error, reach) })

  return {
    plan(args, analysed, withBody, inspect) {
      try {
        const inspection = inspect ? inspect(wireGuard(), config()) : wireGuard().inspect(analysed.text, config())
        const body = inspection?.body
        const withheld = withheldReason(analysed.mode, analysed.keepalive, body)
        const after = () => inspection && report(inspection.events, analysed.url, analysed.reach, withheld)
        return { args: body === undefined || withheld !== undefined ? args : withBody(body), after }
      } catch (error) {
        return failed(args, error, analysed.reach)
      }
    },
    failed,
    openStream(text, protocol, url) {
      const reach = STREAM_REACH[protocol]
      let reading: ReturnType<WireGuard['openStream']>
      try {
        reading = wireGuard().openStream(text, protocol, config())
      } catch (error) {
        fault(error, reach)
        return undefined
      }
      if (!reading) return undefined
      const opened = reading
      let failedOnce = false
      // A reading that failed once reads no more: its run is left where it was.
      const read = (next: () => readonly WireEvent[]): void => {
        if (failedOnce) return
        try {
          report(next(), url, reach, undefined)
        } catch (error) {
          failedOnce = true
          fault(error, reach)
        }
      }
      return { push: (piece) => read(() => opened.push(piece)), end: (cut) => read(() => opened.end(cut)) }
    },
    openRealtime(protocol, address, reach) {
      let session: RealtimeSession | undefined
      let failedOnce = false
      const url = () => address
      // A session that failed once reads no more: its messages go on as the page sends them.
      function run<T>(fallback: T, step: (opened: RealtimeSession) => T): T {
        if (failedOnce) return fallback
        try {
          return step((session ??= wireGuard().openRealtime(protocol, address)))
        } catch (error) {
          failedOnce = true
          fault(error, reach)
          return fallback
        }
      }
      return {
        received: (text) => run(undefined, (opened) => report(opened.received(text, config()), url, reach, undefined)),
        sent: (text, mode) =>
          run(NO_MESSAGES, (opened) => {
            const { reminders, events } = opened.sent(text, config())
            const withheld = mode === 'observe' ? 'observe' : undefined
            report(events, url, reach, withheld)
            return withheld === undefined ? reminders : NO_MESSAGES
          }),
      }
    },
    openResponse(text) {
      let reading: ResponseReading | undefined
      try {
        reading = wireGuard().openResponse(text, config())
      } catch {
        // The request's own analysis failed the same way, and reported it.
        return undefined
      }
      return reading && (() => usageSink(reading, now))
    },
    snapshot: () => wire?.snapshot().map((state) => toAgentState(state, reachOf.get(state.agentId))) ?? [],
  }
}

/**
 * The response's text as the page reads it, to its reading: remembered with the moment the page
 * read its end, or stopped reading it (what it read of a cut response, its calls, is still what the
 * model made). A body that failed is left out.
 */
function usageSink(reading: ResponseReading, now: () => number): BodySink {
  return {
    chunk: (text) => reading.push(text),
    end: () => reading.end(now()),
    cut: () => reading.end(now()),
    fail: () => undefined,
  }
}
