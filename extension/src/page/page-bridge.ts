// The page's side of the bridge: its link to the content relay (silent until the page has
// something to say, relay-link.ts) and its answers to the relay's messages, both over the private
// channel (relay-channel.ts).
import { canonicalArguments, type GuardConfig, type RepeatToolGuard, DETECTORS_OFF } from '../../../engine/index.ts'
import { errorText } from '../../../engine/safe-reading.ts'
import { PROTOCOL_VERSION, type AgentState, type PanelEvent } from '../protocol/events.ts'
import { createDropReport } from '../protocol/drop-counts.ts'
import { snapshotEvent } from '../protocol/from-engine.ts'
import { PAGE_SOURCE, type PageToContent } from '../protocol/messages.ts'
import { checkContentToPage, checkPanelEvent } from '../protocol/validate.ts'
import type { ZeroCodeMode } from '../protocol/zero-code-mode.ts'
import type { PageBuiltins } from './builtins.ts'
import type { ToRelay } from './relay-channel.ts'
import { createRelayLink } from './relay-link.ts'

interface PageBridgeOptions {
  readonly builtins: PageBuiltins
  readonly toRelay: ToRelay
  /** The guard behind `window.__REPEAT_TOOL_GUARD__`. */
  readonly guard: RepeatToolGuard
  /** When and where the page loaded (`document_start`): reported with the page's first batch. */
  readonly loadedAt: number
  readonly url: string
  /** The fetch interceptor's agents, for a resync. */
  readonly wireAgents: () => AgentState[]
  /** Takes zero-code mode's setting for this frame's origin, from the extension. */
  readonly setZeroCode: (mode: ZeroCodeMode) => void
}

interface PageBridge {
  push(event: PanelEvent): void
  fault(message: string): void
  /** A message of the relay, from the private channel (not yet checked). */
  fromRelay(data: unknown): void
  /** A panel event of the fetch interceptor (not yet checked). */
  emit(event: PanelEvent): void
}

export function createPageBridge({ builtins, toRelay, guard, loadedAt, url, wireAgents, setZeroCode }: PageBridgeOptions): PageBridge {
  const link = createRelayLink({ builtins, toRelay, loadedAt, url, config: () => guard.config })
  // Malformed relay messages are counted like the relay's own drops: the relay adds this report to
  // its own, so the panel's totals cover both directions of the channel.
  const drops = createDropReport({
    report: (counts) => toRelay({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'drops', drops: counts } satisfies PageToContent),
    later: builtins.later,
  })

  function resync(): void {
    link.push(snapshotEvent(guard.snapshot(), guard.config, builtins.now()))
    // The fetch interceptor's agents, in a snapshot of their own (a panel merges agent by agent).
    // A failure there is reported, never thrown inside the page's message listener.
    let agents: AgentState[]
    try {
      agents = wireAgents()
    } catch (error) {
      link.fault(`fetch interceptor snapshot failed: ${errorText(error)}`)
      return
    }
    if (agents.length > 0) link.push({ type: 'snapshot', at: builtins.now(), agents, config: guard.config })
  }

  function applyConfig(config: GuardConfig): void {
    // The relay may send the config in force (the stored one read again, a change back and forth).
    if (sameConfig(config, guard.config)) return
    try {
      // The extension sends a whole config: a detector it leaves out is off, not kept as it was.
      guard.configure({ ...DETECTORS_OFF, ...config })
    } catch (error) {
      link.fault(`config from the extension rejected: ${errorText(error)}`)
    }
  }

  return {
    push: link.push,
    fault: link.fault,
    fromRelay(data) {
      const checked = checkContentToPage(data)
      if (!checked.ok) return drops.count(checked.reason)
      const message = checked.value
      if (message.kind === 'zero-code') setZeroCode(message.mode)
      else if (message.kind === 'resync') resync()
      else applyConfig(message.config)
    },
    // Wire events come from another module: check each one here, so a malformed one becomes a
    // fault instead of getting the whole batch (and the hook's events in it) dropped downstream.
    emit(event) {
      const checked = checkPanelEvent(event)
      if (checked.ok) link.push(event)
      else link.fault(`fetch interceptor produced an invalid ${String(event?.type)} event: ${checked.detail}`)
    },
  }
}

/** Every key compared, the detectors' included; both configs are small. */
function sameConfig(a: GuardConfig, b: GuardConfig): boolean {
  return canonicalArguments(a) === canonicalArguments(b)
}
