// Zero-code mode's core: from one outgoing LLM request body, the conversation's completed tool
// calls go through the engine's chain rules, and the body comes back with every due reminder at
// its legal place. The page's history never holds our reminders, so each request re-derives them;
// what was inserted once is remembered per conversation, so later requests repeat it at the same
// place (append-only, whatever the config says by then) and never insert it twice. Every detector
// rides on this: results come from the history, cycles and runs continue from request to request,
// and `stopAfter` is only reported ("would block"), since the calls were already made.
import { canonicalArguments, createRepeatToolGuard, type GuardConfig, type GuardEvent } from '../index.ts'
import { freeze, jsonStringify } from '../intrinsics.ts'
import { parseRecord } from '../records.ts'
import { detectFormat, mayHoldToolCall } from './detect.ts'
import { conversationKey, conversationLabel } from './identity.ts'
import { spliceJson } from './json-splice.ts'
import { placementsOf, type Planned } from './placements.ts'
import { exactArguments } from './exact-arguments.ts'
import type {
  Conversation,
  InsertionPoint,
  JsonObject,
  ConversationItem,
  WireAgentState,
  WireEvent,
  WireFormat,
  WireFormatAdapter,
  WireInspection,
} from './types.ts'

// Taken when the engine loads (at document_start in a page): a page that replaces JSON later
// cannot steer what we write.
const stringifyJson = jsonStringify

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
  /** Every wire agent remembered, with its chain. */
  snapshot(): WireAgentState[]
}

/** A request body and the whole conversation it continues. */
export interface PartialRequest {
  /** The whole conversation, as a request that sends all of it would hold it. */
  readonly history: JsonObject
  /** The body the page wrote, and what `JSON.parse` made of it. */
  readonly text: string
  readonly body: unknown
  /** Where a place of `history` is in `body`; undefined for a place in a part sent before. */
  place(at: InsertionPoint): InsertionPoint | undefined
}

/** One observed prompt or step, and the reminders inserted after it (a prompt has none). */
interface SeenItem {
  readonly key: string
  readonly reminders: readonly string[]
}

interface WireAgent {
  readonly kind: 'wire'
  readonly id: number
  readonly format: WireFormat
  readonly label: string
  /** The engine's agent object; a new one when the conversation's history forks. */
  engineAgent: object
  /**
   * The engine's id for `engineAgent`, learnt when the engine first observes one of its calls;
   * undefined until then (its chain is still empty).
   */
  engineId: number | undefined
  readonly seen: SeenItem[]
  /** The last call number handed out: stays increasing across forks. */
  seq: number
  /**
   * The page started putting guard reminders in this history itself: from then on it is the
   * page's agent, and only what was already inserted is repeated (the provider saw it).
   */
  handedOver: boolean
}

/** A conversation of the page's own agent: nothing to do, and nothing to show twice. */
const PAGES_OWN = /* @__PURE__ */ freeze({ kind: 'hook' as const })

type Known = WireAgent | typeof PAGES_OWN

type Step = Extract<ConversationItem, { kind: 'step' }>

type WireChain = Pick<WireAgentState, 'tool' | 'canonicalArguments' | 'count' | 'nextThreshold'>

type Captured = { readonly event: GuardEvent; readonly item: number }

const PROMPT_KEY = '\u0000prompt'

export function createWireGuard(options: WireGuardOptions = {}): WireGuard {
  const { hookSaw, maxConversations = 256 } = options
  const engine = createRepeatToolGuard()
  let configured: GuardConfig | undefined
  const known = new Map<string, Known>()
  let lastId = 0
  /** Set while new items are observed: collects the engine's events for them. */
  let capture: ((event: GuardEvent) => void) | undefined
  /** The wire agent whose calls the engine is observing. */
  let observing: WireAgent | undefined
  engine.subscribe((event) => {
    if (event.type === 'agent-seen') observing!.engineId = event.agent.id
    else capture?.(event)
  })

  function recall(key: string): Known | undefined {
    const found = known.get(key)
    if (found) {
      known.delete(key)
      known.set(key, found)
    }
    return found
  }

  function remember(key: string, value: Known): void {
    known.set(key, value)
    if (known.size > maxConversations) known.delete(known.keys().next().value!)
  }

  function isPagesOwn(conversation: Conversation, newest: Step): boolean {
    if (conversation.carriesReminders) return true
    // The page reports its calls right after running them, so the newest ones are fresh in its memory.
    return hookSaw !== undefined && newest.calls.some((call) => hookSaw(call.name, canonicalArguments(call.arguments)))
  }

  function newAgent(adapter: WireFormatAdapter, conversation: Conversation): WireAgent {
    const label = conversationLabel(adapter.format, conversation)
    return { kind: 'wire', id: ++lastId, format: adapter.format, label, engineAgent: { name: label }, engineId: undefined, seen: [], seq: 0, handedOver: false }
  }

  function observe(agent: WireAgent, item: ConversationItem): string[] {
    if (item.kind === 'prompt') {
      engine.promptSubmit(agent.engineAgent)
      return []
    }
    const reminders: string[] = []
    observing = agent
    for (const call of item.calls) {
      const exec = { agent: agent.engineAgent, name: call.name, arguments: call.arguments }
      // The model already made the call: `stopAfter` can only say it would have blocked it.
      engine.preExecute(exec)
      const message = engine.observe(exec, { isError: call.isError, content: call.content })
      if (message) reminders.push(message.content[0].text)
    }
    return reminders
  }

  /**
   * Keeps what was seen as far as this history agrees with it. A history that no longer extends
   * the one seen (an edited prompt, a regenerated answer) forks: the chain is rebuilt silently
   * up to where the two agree. Returns how many items agree.
   */
  function agree(agent: WireAgent, items: readonly ConversationItem[]): number {
    const { seen } = agent
    let common = 0
    while (common < seen.length && common < items.length && seen[common]!.key === keyOf(items[common]!)) common++
    if (common < seen.length) {
      seen.length = common
      // A new engine agent, unknown to the engine until its first call: the id goes with the old one.
      agent.engineAgent = { name: agent.label }
      agent.engineId = undefined
      for (const item of items.slice(0, common)) observe(agent, item)
    }
    return common
  }

  /** Observes the items after `from`, remembering each with its reminders; returns the engine's events. */
  function observeFrom(agent: WireAgent, items: readonly ConversationItem[], from: number): Captured[] {
    const captured: Captured[] = []
    let current = from
    capture = (event) => captured.push({ event, item: current })
    try {
      for (; current < items.length; current++) {
        const item = items[current]!
        agent.seen.push({ key: keyOf(item), reminders: observe(agent, item) })
      }
    } finally {
      capture = undefined
    }
    return captured
  }

  /** The engine's events, renumbered for the wire agent, with where each reminder went. */
  function report(agent: WireAgent, captured: readonly Captured[], placements: Map<number, string[]>): WireEvent[] {
    const events: WireEvent[] = []
    for (const { event, item } of captured) {
      switch (event.type) {
        case 'call':
          events.push({ ...event, agentId: agent.id, seq: ++agent.seq })
          break
        case 'chain-reset':
          events.push({ ...event, agentId: agent.id })
          break
        case 'blocked':
          events.push({ ...event, agentId: agent.id, wouldBlock: true })
          break
        case 'reminder': {
          // Fired for a step first seen now, so inserted after it, unless its place is in a part
          // of the conversation sent before. The call that fired it is the last one numbered so far.
          const placement = placements.get(item)?.shift()
          if (placement !== undefined) events.push({ ...event, agentId: agent.id, seq: agent.seq, placement })
          break
        }
      }
    }
    return events
  }

  function inspectPart({ history, text, body, place }: PartialRequest, config: GuardConfig): WireInspection | undefined {
    const adapter = detectFormat(history)
    if (!adapter) return undefined
    // Arguments objects are cut from the text only where the text is the history's own.
    const conversation = adapter.walk(history, history === body ? exactArguments(text, body) : undefined)
    const { items } = conversation
    const steps = items.filter((item): item is Step => item.kind === 'step')
    // No wire agent before its first completed tool call.
    if (steps.length === 0) return undefined

    const key = conversationKey(adapter.format, conversation)
    let agent = recall(key)
    const isNew = agent === undefined
    if (!agent) {
      agent = isPagesOwn(conversation, steps[steps.length - 1]!) ? PAGES_OWN : newAgent(adapter, conversation)
      remember(key, agent)
    }
    if (agent.kind === 'hook') return undefined
    if (conversation.carriesReminders) agent.handedOver = true

    if (config !== configured) {
      engine.configure(config)
      configured = config
    }
    const common = agree(agent, items)
    const captured = agent.handedOver ? [] : observeFrom(agent, items, common)

    const planned: Planned[] = []
    agent.seen.forEach(({ reminders }, index) => {
      const item = items[index]!
      if (item.kind !== 'step' || item.guarded || reminders.length === 0) return
      // A place in a part sent before: the provider already has what was inserted there.
      const at = place(item.at)
      if (at) planned.push({ item: index, at, values: reminders.map((text) => stringifyJson(adapter.reminderItem(text))) })
    })
    const inserted = planned.reduce((sum, insertion) => sum + insertion.values.length, 0)
    const rewritten = inserted > 0 ? { body: spliceJson(text, body, planned) } : {}
    if (agent.handedOver) return { format: adapter.format, ...rewritten, events: [] }

    const now = Date.now()
    const events: WireEvent[] = [
      ...(isNew ? [{ type: 'agent', at: now, agentId: agent.id, format: adapter.format, label: agent.label } as const] : []),
      ...report(agent, captured, placementsOf(planned)),
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

    snapshot() {
      const chains = new Map(engine.snapshot().map((chain) => [chain.id, chain]))
      // A wire agent whose history forked back to before its first call has no engine chain yet.
      const empty: WireChain = { count: 0, nextThreshold: engine.config.thresholds[0]! }
      const states: WireAgentState[] = []
      for (const agent of known.values()) {
        if (agent.kind !== 'wire') continue
        const chain = agent.engineId === undefined ? undefined : chains.get(agent.engineId)
        const { tool, canonicalArguments: args, count, nextThreshold } = chain ?? empty
        states.push({ agentId: agent.id, format: agent.format, label: agent.label, ...(tool === undefined ? {} : { tool, canonicalArguments: args! }), count, nextThreshold })
      }
      return states
    },
  }
}

function keyOf(item: ConversationItem): string {
  return item.kind === 'prompt' ? PROMPT_KEY : item.key
}
