// The MAIN-world script, run at document_start in every frame before any page script. It does the
// least a page that never runs an agent must pay for: it installs `window.__REPEAT_TOOL_GUARD__`
// and the fetch interceptor. The engine, the wire guard and the traffic to the content relay start
// with the first call that needs them. Nothing here may ever break the page.
import { createRepeatToolGuard, type GuardConfig } from '../../../engine/index.ts'
import { PROTOCOL_VERSION, type AgentState, type InspectorEvent } from '../protocol/events.ts'
import { errorText } from '../../../engine/text.ts'
import { fromEngineEvent, snapshotEvent } from '../protocol/from-engine.ts'
import { CONTENT_SOURCE, PAGE_SOURCE, type PageToContent } from '../protocol/messages.ts'
import { checkContentToPage, checkInspectorEvent, isTagged } from '../protocol/validate.ts'
// Pure counting, shared with the relay (no extension API in it).
import { createDropReport } from '../content/drop-report.ts'
import { captureBuiltins } from './builtins.ts'
import { installFetchInterceptor } from './fetch/install.ts'
import { createLazyGuard } from './lazy-guard.ts'
import { createPageGuard } from './page-api.ts'
import { createRecentCalls } from './recent-calls.ts'
import { createRelayLink } from './relay-link.ts'

const GLOBAL_NAME = '__REPEAT_TOOL_GUARD__'

function install(win: Window & typeof globalThis): void {
  // Already there: this frame was set up before (the script must never run twice on one window).
  if (Object.hasOwn(win, GLOBAL_NAME)) return
  const builtins = captureBuiltins(win)
  const recentCalls = createRecentCalls()
  const guard = createLazyGuard((config) => {
    const engine = createRepeatToolGuard(config)
    engine.subscribe((event) => {
      if (event.type === 'call') recentCalls.add(event.tool, event.canonicalArguments)
      link.push(fromEngineEvent(event))
    })
    return engine
  })
  const link = createRelayLink({ builtins, loadedAt: builtins.now(), url: win.location.href, config: () => guard.config })

  Object.defineProperty(win, GLOBAL_NAME, {
    value: createPageGuard(guard, PROTOCOL_VERSION, link.fault),
    writable: false,
    enumerable: false,
    configurable: false,
  })

  // Forged or malformed relay messages are counted like the relay's own drops: the relay adds
  // this report to its own, so the panel's totals cover both directions of the window hop.
  const drops = createDropReport({
    report: (counts) => builtins.post({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'drops', drops: counts } satisfies PageToContent),
    later: builtins.later,
  })
  let wireAgents = (): AgentState[] => []
  builtins.onMessage((source, data) => {
    // Not tagged as the relay's: other scripts' traffic (our own batches included), not counted.
    if (!isTagged(data, CONTENT_SOURCE)) return
    // The relay posts to this window only: the tag from another window (a frame, an opener) is forged.
    if (source !== win) return drops.count('source')
    const checked = checkContentToPage(data)
    if (!checked.ok) return drops.count(checked.reason)
    const message = checked.value
    if (message.kind === 'resync') {
      // A page whose engine never started has no agent: its snapshot is empty, and says so.
      link.push(snapshotEvent(guard.built?.snapshot() ?? [], guard.config, builtins.now()))
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
      return
    }
    // The relay may send the same config twice (once stored, once it knows this script listens).
    if (sameConfig(message.config, guard.config)) return
    const running = guard.built
    try {
      guard.deliver(message.config)
    } catch (error) {
      link.fault(`config from the extension rejected: ${errorText(error)}`)
      return
    }
    // A running engine reports its new config itself; one yet to start has it reported here.
    if (!running) link.push({ type: 'config', at: builtins.now(), config: guard.config })
  })

  // Wire events come from another module: check each one here, so a malformed one becomes a
  // fault instead of getting the whole batch (and the hook's events in it) dropped downstream.
  const emit = (event: InspectorEvent) => {
    const checked = checkInspectorEvent(event)
    if (checked.ok) link.push(event)
    else link.fault(`fetch interceptor produced an invalid ${String(event?.type)} event: ${checked.detail}`)
  }
  try {
    wireAgents = installFetchInterceptor({ target: win, config: () => guard.config, emit, hookSaw: recentCalls.has }).snapshot
  } catch (error) {
    link.fault(`fetch interception is off: ${errorText(error)}`)
  }
}

function sameConfig(a: GuardConfig, b: GuardConfig): boolean {
  const sameList = (x: readonly unknown[], y: readonly unknown[]) => x.length === y.length && x.every((item, i) => item === y[i])
  return (
    a.argumentsPreviewChars === b.argumentsPreviewChars &&
    sameList(a.thresholds, b.thresholds) &&
    sameList(a.include, b.include) &&
    sameList(a.exclude, b.exclude)
  )
}

try {
  install(window)
} catch {
  // Never break the page: without the bridge the page runs exactly as it would without us.
}
