// The MAIN-world script, run at document_start in every frame before any page script: installs
// `window.__REPEAT_TOOL_GUARD__`, streams its events (and the fetch interceptor's) to the content
// relay, and takes config and resync requests back. Nothing here may ever break the page.
import { canonicalArguments, createRepeatToolGuard, RECOMMENDED_CONFIG, type GuardConfig } from '../../../engine/index.ts'
import { DETECTORS_OFF } from '../../../engine/detectors/config.ts'
import { LIMITS, PROTOCOL_VERSION, type AgentState, type InspectorEvent } from '../protocol/events.ts'
import { errorText, headOf } from '../../../engine/text.ts'
import { fromEngineEvent, snapshotEvent } from '../protocol/from-engine.ts'
import { CONTENT_SOURCE, PAGE_SOURCE, type PageToContent } from '../protocol/messages.ts'
import { redactUrl } from '../protocol/redact-url.ts'
import { checkContentToPage, checkInspectorEvent, isTagged } from '../protocol/validate.ts'
// Pure counting, shared with the relay (no extension API in it).
import { createDropReport } from '../content/drop-report.ts'
import { createBatcher } from './batcher.ts'
import { captureBuiltins } from './builtins.ts'
import { installFetchInterceptor } from './fetch/install.ts'
import { createOriginMode } from './origin-mode.ts'
import { createPageGuard } from './page-api.ts'
import { createRecentCalls } from './recent-calls.ts'

const GLOBAL_NAME = '__REPEAT_TOOL_GUARD__'

function install(win: Window & typeof globalThis): void {
  // Already there: this frame was set up before (the script must never run twice on one window).
  if (Object.hasOwn(win, GLOBAL_NAME)) return
  const builtins = captureBuiltins(win)
  const batcher = createBatcher({
    send: (events) => builtins.post({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'events', events } satisfies PageToContent),
    now: builtins.now,
    microtask: builtins.microtask,
    later: builtins.later,
  })
  const fault = (message: string) => batcher.push({ type: 'fault', at: builtins.now(), message: headOf(message, LIMITS.text) })

  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const recentCalls = createRecentCalls()
  guard.subscribe((event) => {
    if (event.type === 'call') recentCalls.add(event.tool, event.canonicalArguments)
    batcher.push(fromEngineEvent(event))
  })

  Object.defineProperty(win, GLOBAL_NAME, {
    value: createPageGuard(guard, PROTOCOL_VERSION, fault),
    writable: false,
    enumerable: false,
    configurable: false,
  })
  batcher.push({ type: 'page-load', at: builtins.now(), url: headOf(redactUrl(win.location.href), LIMITS.url) })
  batcher.push({ type: 'config', at: builtins.now(), config: guard.config })

  // Forged or malformed relay messages are counted like the relay's own drops: the relay adds
  // this report to its own, so the panel's totals cover both directions of the window hop.
  const drops = createDropReport({
    report: (counts) => builtins.post({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'drops', drops: counts } satisfies PageToContent),
    later: builtins.later,
  })
  let wireAgents = (): AgentState[] => []
  const zeroCode = createOriginMode(win)
  builtins.onMessage((source, data) => {
    // Not tagged as the relay's: other scripts' traffic (our own batches included), not counted.
    if (!isTagged(data, CONTENT_SOURCE)) return
    // The relay posts to this window only: the tag from another window (a frame, an opener) is forged.
    if (source !== win) return drops.count('source')
    const checked = checkContentToPage(data)
    if (!checked.ok) return drops.count(checked.reason)
    const message = checked.value
    if (message.kind === 'zero-code') return zeroCode.set(message.mode)
    if (message.kind === 'resync') {
      batcher.push(snapshotEvent(guard.snapshot(), guard.config, builtins.now()))
      // The fetch interceptor's agents, in a snapshot of their own (a panel merges agent by agent).
      // A failure there is reported, never thrown inside the page's message listener.
      let agents: AgentState[]
      try {
        agents = wireAgents()
      } catch (error) {
        fault(`fetch interceptor snapshot failed: ${errorText(error)}`)
        return
      }
      if (agents.length > 0) batcher.push({ type: 'snapshot', at: builtins.now(), agents, config: guard.config })
      return
    }
    // The relay may send the same config twice (once stored, once it knows this script listens).
    if (sameConfig(message.config, guard.config)) return
    try {
      // The extension sends a whole config: a detector it leaves out is off, not kept as it was.
      guard.configure({ ...DETECTORS_OFF, ...message.config })
    } catch (error) {
      fault(`config from the extension rejected: ${errorText(error)}`)
    }
  }, (error) => fault(`a message from the extension could not be handled: ${errorText(error)}`))

  // Wire events come from another module: check each one here, so a malformed one becomes a
  // fault instead of getting the whole batch (and the hook's events in it) dropped downstream.
  const emit = (event: InspectorEvent) => {
    const checked = checkInspectorEvent(event)
    if (checked.ok) batcher.push(event)
    else fault(`fetch interceptor produced an invalid ${String(event?.type)} event: ${checked.detail}`)
  }
  try {
    wireAgents = installFetchInterceptor({ target: win, config: () => guard.config, mode: zeroCode.current, emit, hookSaw: recentCalls.has }).snapshot
  } catch (error) {
    fault(`fetch interception is off: ${errorText(error)}`)
  }
}

/** Every key compared, the detectors' included; both configs are small. */
function sameConfig(a: GuardConfig, b: GuardConfig): boolean {
  return canonicalArguments(a) === canonicalArguments(b)
}

try {
  install(window)
} catch {
  // Never break the page: without the bridge the page runs exactly as it would without us.
}
