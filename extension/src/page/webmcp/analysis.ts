// The frame's WebMCP agent: every invocation of a tool the frame exposes through WebMCP is a call
// of one agent (`webmcp:1`), guarded by an engine guard of its own that runs the page's config. It
// says, before a tool runs, whether `stopAfter` refuses the call, and after, what the agent gets
// back: the result with a due reminder appended (guard), or as the tool made it (observe). Part of
// the page script's on-demand half: a frame whose tools are never called never builds it.
import { createRepeatToolGuard, type GuardConfig, type GuardEvent, type RepeatToolGuard, type ToolResult, DETECTORS_OFF } from '../../../../engine/index.ts'
import { arrayPush, mapped } from '../../../../engine/intrinsics.ts'
import { errorText, headOf } from '../../../../engine/safe-reading.ts'
import { LIMITS, type AgentState, type PanelEvent, type Withheld } from '../../protocol/events.ts'
import { agentState, fromEngineEvent } from '../../protocol/from-engine.ts'
import { blockedResult, readResult, resultContent, withReminder, type ReadResult, type ResultForm } from './result.ts'

const AGENT_ID = 'webmcp:1'
const LABEL = 'WebMCP tools'

interface WebMcpAnalysisOptions {
  /** The page's config, read on every call (it changes live from the panel). */
  readonly config: () => GuardConfig
  /** Panel events of the WebMCP agent. */
  readonly emit: (event: PanelEvent) => void
  readonly now: () => number
}

/** One invocation: the tool's name and the arguments object it was called with. */
export interface ToolCall {
  readonly name: string
  readonly args: unknown
}

/** How the call ended: the value it returned (or resolved to), or what it threw (or rejected with). */
export type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown }

/** `guard`: reminders appended, `stopAfter` enforced; `observe`: both only shown. */
export type WatchMode = 'guard' | 'observe'

export interface WebMcpAnalysis {
  /** Before the tool runs: what to answer instead of running it when `stopAfter` refuses the call (guard only). */
  refused(call: ToolCall, mode: WatchMode, form: ResultForm): { readonly result: unknown } | undefined
  /** After: the result the agent gets (for a call that threw, ignored: its error goes on as it was). */
  settled(call: ToolCall, outcome: Outcome, mode: WatchMode, form: ResultForm): unknown
  /** Something in the hooks failed; the page's call went on as it was. */
  fault(error: unknown): void
  /** The WebMCP agent as it stands, for the `snapshot` a panel needs after a reconnect. */
  snapshot(): AgentState[]
}

export function createWebMcpAnalysis({ config, emit, now }: WebMcpAnalysisOptions): WebMcpAnalysis {
  // The agent the guard counts this frame's tool calls under: one per frame, for the frame's life.
  const agent = { name: LABEL }
  let guard: RepeatToolGuard | undefined
  let applied: GuardConfig | undefined
  /** The guard's events of the call under way, sent once its outcome is known. */
  let held: PanelEvent[] = []

  /** The guard, on the page's config as it stands now. */
  function current(): RepeatToolGuard {
    const wanted = config()
    if (guard === undefined) {
      guard = createRepeatToolGuard({ ...DETECTORS_OFF, ...wanted })
      guard.subscribe((event) => {
        const converted = toPanelEvent(event)
        if (converted) arrayPush(held, converted)
      })
    } else if (wanted !== applied) guard.configure({ ...DETECTORS_OFF, ...wanted })
    applied = wanted
    return guard
  }

  /** Sends the events held, each changed by `adjust` first; a broken pipeline loses an event, never a call. */
  function send(adjust: (event: PanelEvent) => PanelEvent = (event) => event): void {
    const events = held
    held = []
    for (let i = 0; i < events.length; i++) {
      try {
        emit(adjust(events[i]))
      } catch {
        // Lost, and nothing else.
      }
    }
  }

  function fault(error: unknown): void {
    held = []
    try {
      emit({ type: 'fault', at: now(), message: headOf(`WebMCP: the tool call went on unchanged: ${errorText(error)}`, LIMITS.text) })
    } catch {
      // Nowhere left to report to.
    }
  }

  /** Observes the call and returns what the agent gets: `read` with the due reminder, if it may go in. */
  function observed(call: ToolCall, result: ToolResult, read: ReadResult | undefined, original: unknown, mode: WatchMode, form: ResultForm): unknown {
    const reminder = current().observe({ agent, name: call.name, arguments: call.args }, result)
    const text = reminder?.content[0].text
    const given = text === undefined || read === undefined || mode !== 'guard' ? undefined : withReminder(read, text, form)
    const withheld: Withheld | undefined = given !== undefined ? undefined : mode === 'observe' ? 'observe' : 'no-content'
    const placement = read?.content === undefined ? 'content' : `content[${read.content.length}]`
    send((event) => (event.type === 'reminder' ? { ...event, placement, ...(withheld === undefined ? {} : { withheld }) } : event))
    return given ?? original
  }

  return {
    refused(call, mode, form) {
      try {
        const decision = current().preExecute({ agent, name: call.name, arguments: call.args })
        const enforced = mode === 'guard'
        send((event) => (event.type === 'blocked' && !enforced ? { ...event, wouldBlock: true } : event))
        if (decision.kind !== 'block' || !enforced) return undefined
        // The tool does not run: the agent reads the feedback as the call's (error) result, and the
        // run counts the call as denied, as the page API's agents report a blocked call.
        const answer = blockedResult(decision.feedback, form)
        return { result: observed(call, { denied: true }, readResult(answer, form), answer, mode, form) }
      } catch (error) {
        fault(error)
        return undefined
      }
    },
    settled(call, outcome, mode, form) {
      const original = outcome.ok ? outcome.value : undefined
      try {
        if (!outcome.ok) return observed(call, { isError: true }, undefined, original, mode, form)
        const read = readResult(outcome.value, form)
        return observed(call, { isError: read.isError, content: resultContent(read) }, read, original, mode, form)
      } catch (error) {
        fault(error)
        return original
      }
    },
    fault,
    snapshot: () => (guard === undefined ? [] : mapped(guard.snapshot(), (state) => ({ ...agentState(state, true), ...DESCRIPTOR }))),
  }
}

const DESCRIPTOR = { id: AGENT_ID, kind: 'webmcp', label: LABEL, reach: 'webmcp' } as const

/** The guard's events as the WebMCP agent's (its own `config` events are the page guard's already). */
function toPanelEvent(event: GuardEvent): PanelEvent | undefined {
  if (event.type === 'config') return undefined
  if (event.type === 'agent-seen') return { type: 'agent', at: event.at, agent: DESCRIPTOR }
  const converted = fromEngineEvent(event)
  return 'agentId' in converted ? { ...converted, agentId: AGENT_ID } : converted
}
