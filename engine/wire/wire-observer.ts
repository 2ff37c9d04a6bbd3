// Feeds a wire agent's history to the engine, item by item, as if its calls ran now: the chain
// rules, every detector and the reminder texts are the engine's own. The engine's events for the
// items first seen in a request are collected with the item that caused each.
import { anyDetectorOn } from '../detectors/config.ts'
import type { GuardEvent, RepeatToolGuard } from '../types.ts'
import type { ConversationItem, WireCall } from './types.ts'
import { createWasteMarks } from './usage/waste-marks.ts'
import type { ResponseRecords } from './usage/response-records.ts'
import { keyOf, type WireAgent } from './wire-agent.ts'

/** An engine event, with the index of the conversation item it came from. */
export interface Captured {
  readonly event: GuardEvent
  readonly item: number
}

export interface WireObserver {
  /**
   * Keeps what was seen as far as this history agrees with it. A history that no longer extends
   * the one seen (an edited prompt, a regenerated answer) forks: the chain is rebuilt silently
   * up to where the two agree. Returns how many items agree.
   */
  agree(agent: WireAgent, items: readonly ConversationItem[]): number
  /**
   * Observes the items after `from`, remembering each with its reminders (none when `given` is
   * false: they went into no request, so no later request may suddenly carry them); returns the
   * engine's events.
   */
  observeFrom(agent: WireAgent, items: readonly ConversationItem[], from: number, given?: boolean): Captured[]
  /**
   * Observes calls a server's loop made, read from its stream, as part of the step `key` names:
   * the seen item at `index`, new (the next one) or grown by these calls. Its reminders were never
   * given, so none is kept to insert later. Returns the engine's events, with item `index`.
   */
  observeStreamed(agent: WireAgent, calls: readonly WireCall[], key: string, index: number): Captured[]
  /**
   * Observes one prompt or one call of a live session, whose history stays on the provider: nothing
   * is kept in `seen`. Returns the engine's events, with item 0.
   */
  observeLive(agent: WireAgent, item: LiveItem): Captured[]
}

/** What a live session adds to its conversation: a prompt, or calls with their results. */
export type LiveItem = { readonly kind: 'prompt' } | { readonly kind: 'calls'; readonly calls: readonly WireCall[] }

/** `records`: the responses the page read, which time each call and count its tokens (docs/zero-code.md, "Waste"). */
export function createWireObserver(engine: RepeatToolGuard, records: ResponseRecords): WireObserver {
  /** Set while new items are observed: collects the engine's events for them. */
  let capture: ((event: GuardEvent) => void) | undefined
  /** The wire agent whose calls the engine is observing. */
  let observing: WireAgent | undefined
  const waste = createWasteMarks(records)
  engine.subscribe((event) => {
    if (event.type === 'agent-seen') observing!.engineId = event.agent.id
    else capture?.(waste.measured(event))
  })

  function observe(agent: WireAgent, item: ConversationItem): string[] {
    if (item.kind === 'prompt') {
      engine.promptSubmit(agent.engineAgent)
      return []
    }
    return observeCalls(agent, item.calls)
  }

  function observeCalls(agent: WireAgent, calls: readonly WireCall[]): string[] {
    const reminders: string[] = []
    observing = agent
    // Waste is reported only while an opt-in detector is on: only then is each call marked.
    const timed = anyDetectorOn(engine.config)
    for (const call of calls) {
      const exec = { agent: agent.engineAgent, name: call.name, arguments: call.arguments }
      const run = () => {
        // The model already made the call: `stopAfter` can only say it would have blocked it.
        engine.preExecute(exec)
        const message = engine.observe(exec, { isError: call.isError, content: call.content })
        if (message) reminders.push(message.content[0].text)
      }
      if (timed) waste.marked(agent, call, run)
      else run()
    }
    return reminders
  }

  /** Runs `observing`, with the engine's events it makes collected as events of item `index`. */
  function capturing(index: number, observing: () => void): Captured[] {
    const captured: Captured[] = []
    capture = (event) => captured.push({ event, item: index })
    try {
      observing()
    } finally {
      capture = undefined
    }
    return captured
  }

  return {
    agree(agent, items) {
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
    },

    observeFrom(agent, items, from, given = true) {
      const captured: Captured[] = []
      let current = from
      capture = (event) => captured.push({ event, item: current })
      try {
        for (; current < items.length; current++) {
          const item = items[current]!
          const reminders = observe(agent, item)
          agent.seen.push({ key: keyOf(item), reminders: given ? reminders : [] })
        }
      } finally {
        capture = undefined
      }
      return captured
    },

    observeStreamed(agent, calls, key, index) {
      const captured = capturing(index, () => observeCalls(agent, calls))
      agent.seen[index] = { key, reminders: [] }
      return captured
    },

    observeLive: (agent, item) =>
      capturing(0, () => {
        if (item.kind === 'prompt') engine.promptSubmit(agent.engineAgent)
        else observeCalls(agent, item.calls)
      }),
  }
}
