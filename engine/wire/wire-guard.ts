// Zero-code mode's core: from one outgoing LLM request body, the conversation's completed tool
// calls go through the engine's chain rules, and the body comes back with every due reminder at
// its legal place. The page's history never holds our reminders, so each request re-derives them;
// what was inserted once is remembered per conversation, so later requests repeat it at the same
// place (append-only, whatever the config says by then) and never insert it twice. Every detector
// rides on this: results come from the history, cycles and runs continue from request to request,
// and `stopAfter` is only reported ("would block"), since the calls were already made.
import { canonicalArguments, createRepeatToolGuard, type GuardConfig } from '../index.ts'
import { parseRecord } from '../records.ts'
import { answerEvent } from './answers/repeated-answers.ts'
import { answersFor, inBodyOrder } from './answers/wire-answers.ts'
import { createAgentStreamReading } from './agent-streams/agent-stream-reading.ts'
import { STREAM_REQUESTS } from './agent-streams/stream-requests.ts'
import { createStreamedSteps } from './agent-streams/streamed-steps.ts'
import { detectFormat, mayHoldToolCall } from './detect.ts'
import { exactArguments } from './exact-arguments.ts'
import { conversationKey } from './identity.ts'
import { spliceJson } from './json-splice.ts'
import { createKnownConversations } from './known-conversations.ts'
import { placementsOf } from './placements.ts'
import { planReminders } from './planned-reminders.ts'
import type { AgentStreamProtocol, AgentStreamReading, Conversation, InsertionPoint, JsonObject, WireAgentState, WireEvent, WireInspection } from './types.ts'
import { newLiveAgent, newWireAgent, PAGES_OWN, type SeenItem, type Step, type WireAgent } from './wire-agent.ts'
import { createWireObserver } from './wire-observer.ts'
import { REALTIME_DIALECTS } from './realtime/dialects.ts'
import { createRealtimeSession, type RealtimeSession } from './realtime/realtime-session.ts'
import type { RealtimeProtocol } from './realtime/types.ts'
import { createResponseRecords } from './usage/response-records.ts'
import { openResponseReading, type ResponseReading } from './usage/response-reading.ts'
import { createUsageRequests } from './usage/usage-requests.ts'
import { announce, reportCaptured } from './wire-report.ts'
import { wireSnapshot } from './wire-snapshot.ts'

interface WireGuardOptions {
  /**
   * Whether the page's own agent already reported this call to the guard's page API. A
   * conversation whose newest calls it reported is that agent: it is left to the page.
   */
  readonly hookSaw?: (tool: string, canonicalArguments: string) => boolean
  /** Conversations remembered at once; the one seen least recently is forgotten first. */
  readonly maxConversations?: number
}

export interface WireGuard {
  /**
   * Inspects one request body under `config`. Undefined when the body is not an LLM request with
   * a completed tool call, or belongs to the page's own guarded agent. Throws on an internal
   * failure: the caller then sends the request as it was.
   */
  inspect(body: string, config: GuardConfig): WireInspection | undefined
  /**
   * Inspects a request that sends only the newest part of its conversation (the provider keeps
   * the rest): the chain rules run over the whole history, and only the reminders whose place is
   * in the part sent now are inserted, into the page's body. Throws as `inspect` does.
   */
  inspectPart(request: PartialRequest, config: GuardConfig): WireInspection | undefined
  /**
   * Opens the reading of a response whose request body is `request` and whose stream speaks
   * `protocol`: the tool calls and results the server's loop streams go through the chain rules
   * of the request's conversation (one agent: the chat id, the AG-UI thread), as reminders the
   * page cannot give (`serverLoop`). Undefined when the request is not that protocol's. Throws
   * as `inspect` does.
   */
  openStream(request: string, protocol: AgentStreamProtocol, config: GuardConfig): AgentStreamReading | undefined
  /**
   * Opens the reading of one realtime session, a connection to `address` speaking `protocol`:
   * its agent is the session (docs/zero-code.md, "Realtime sessions").
   */
  openRealtime(protocol: RealtimeProtocol, address: string): RealtimeSession
  /**
   * Opens the reading of the response to the request whose body is `request`, as the page reads it,
   * for the time and the tokens of the calls and answers it makes (docs/zero-code.md, "Waste").
   * Undefined when nothing is read: no opt-in detector on, or not a request of the four LLM APIs.
   */
  openResponse(request: string, config: GuardConfig): ResponseReading | undefined
  /** Every wire agent remembered, with its chain. */
  snapshot(): WireAgentState[]
}

/** Calls and answers remembered with the response that made them. */
const MAX_RECORDS = 4_096

/** A request body and the whole conversation it continues. */
export interface PartialRequest {
  /** The whole conversation, as a request that sends all of it would hold it. */
  readonly history: JsonObject
  /** The body the page wrote, and the object `JSON.parse` made of it. */
  readonly text: string
  readonly body: JsonObject
  /** Where a place of `history` is in `body`; undefined for a place in a part sent before. */
  place(at: InsertionPoint): InsertionPoint | undefined
}

export function createWireGuard(options: WireGuardOptions = {}): WireGuard {
  const { hookSaw, maxConversations = 256 } = options
  const engine = createRepeatToolGuard()
  let configured: GuardConfig | undefined
  const known = createKnownConversations(maxConversations)
  let lastId = 0
  const records = createResponseRecords(MAX_RECORDS)
  const observer = createWireObserver(engine, records)
  const usageRequests = createUsageRequests()

  function configure(config: GuardConfig): void {
    if (config === configured) return
    engine.configure(config)
    configured = config
  }

  function isPagesOwn(conversation: Conversation, newest: Step): boolean {
    if (conversation.carriesReminders) return true
    // The page reports its calls right after running them, so the newest ones are fresh in its memory.
    return hookSaw !== undefined && newest.calls.some((call) => hookSaw(call.name, canonicalArguments(call.arguments)))
  }

  function inspectPart({ history, text, body, place }: PartialRequest, config: GuardConfig): WireInspection | undefined {
    usageRequests.parsed(text, body, config)
    const adapter = detectFormat(history)
    if (!adapter) return undefined
    // Arguments objects are cut from the text only where the text is the history's own.
    const conversation = adapter.walk(history, history === body ? exactArguments(text, body) : undefined)
    const { items } = conversation
    const steps = items.filter((item): item is Step => item.kind === 'step')
    // No wire agent before its first completed tool call.
    if (steps.length === 0) return undefined

    const key = conversationKey(adapter.format, conversation)
    let agent = known.recall(key)
    if (!agent) {
      agent = isPagesOwn(conversation, steps[steps.length - 1]!) ? PAGES_OWN : newWireAgent(++lastId, adapter, conversation)
      known.remember(key, agent)
    }
    if (agent.kind === 'hook') return undefined
    if (conversation.carriesReminders) agent.handedOver = true

    configure(config)
    const common = observer.agree(agent, items)
    const captured = agent.handedOver ? [] : observer.observeFrom(agent, items, common)

    const now = Date.now()
    const answered = answersFor(agent, config, { adapter, history, place, seen: records.forAnswer, now })
    const toolsPlanned = planReminders(agent.seen, items, place, adapter)
    const planned = answered.planned.length > 0 ? inBodyOrder([...toolsPlanned, ...answered.planned]) : toolsPlanned
    const inserted = planned.reduce((sum, insertion) => sum + insertion.values.length, 0)
    const rewritten = inserted > 0 ? { body: spliceJson(text, body, planned) } : {}
    if (agent.handedOver) return { format: adapter.format, ...rewritten, events: [] }

    const placements = placementsOf(planned)
    const wire = agent
    const events: WireEvent[] = [
      ...announce(agent, now),
      ...reportCaptured(agent, captured, placements),
      // Every fired answer reminder was placed in this request's body.
      ...answered.fired.map((fired) => answerEvent(wire.id, wire.seq, fired, placements.get(fired.item)![0]!, now)),
      {
        type: 'request',
        at: now,
        agentId: agent.id,
        format: adapter.format,
        calls: steps.reduce((sum, step) => sum + step.calls.length, 0),
        remindersInserted: inserted,
        rewritten: inserted > 0,
      },
    ]
    return { format: adapter.format, ...rewritten, events }
  }

  return {
    inspect(text, config) {
      if (!mayHoldToolCall(text)) return undefined
      const body = parseRecord(text)
      if (!body) return undefined
      return inspectPart({ history: body, text, body, place: (at) => at }, config)
    },

    inspectPart,

    openStream(text, protocol, config) {
      const body = parseRecord(text)
      const { adapter, isRequest } = STREAM_REQUESTS[protocol]
      if (!body || !isRequest(body)) return undefined
      const conversation = adapter.walk(body, exactArguments(text, body))
      const key = conversationKey(adapter.format, conversation)
      let agent = known.recall(key)
      // Known from the start, before any call: the stream may bring the first.
      if (!agent) {
        agent = conversation.carriesReminders ? PAGES_OWN : newWireAgent(++lastId, adapter, conversation)
        known.remember(key, agent)
      }
      if (agent.kind === 'hook' || agent.handedOver) return undefined
      const wire = agent
      configure(config)
      // What the request's inspection did not see (its body had no completed call yet) is seen
      // now, as the page sent it: nothing of it was inserted anywhere.
      const common = observer.agree(wire, conversation.items)
      let pending = reportCaptured(wire, observer.observeFrom(wire, conversation.items, common, false), new Map())
      /** The seen item each step of the stream was put as. */
      const placed = new Map<number, SeenItem>()
      const steps = createStreamedSteps((calls, stepKey, index) => {
        configure(config)
        // A step whose item a forked history dropped (a request from another tab, say) is put anew.
        const at = index !== undefined && wire.seen[index] === placed.get(index) ? index : wire.seen.length
        pending.push(...reportCaptured(wire, observer.observeStreamed(wire, calls, stepKey, at), 'serverLoop'))
        placed.set(at, wire.seen[at]!)
        return at
      })
      return createAgentStreamReading(protocol, steps, () => {
        const events = pending.length > 0 ? [...announce(wire, Date.now()), ...pending] : pending
        pending = []
        return events
      })
    },

    openRealtime(protocol, address) {
      const newAgent = (label: string): WireAgent => {
        const agent = newLiveAgent(++lastId, protocol, label)
        known.remember(`\u0000realtime\u0000${agent.id}`, agent)
        return agent
      }
      return createRealtimeSession(REALTIME_DIALECTS[protocol], address, { observer, configure, newAgent })
    },

    openResponse: (request, config) => openResponseReading(records, usageRequests, request, config),

    snapshot: () => wireSnapshot(engine, known.values()),
  }
}
