// The MAIN-world script, run at document_start in every frame before any page script. It does the
// least a page that never runs an agent must pay for: it builds the guard behind
// `window.__REPEAT_TOOL_GUARD__` (now, so that built-ins a page replaces later cannot break it),
// installs the fetch interceptor and listens for the relay (page-bridge.ts). It posts nothing, and
// builds no wire guard, until the page has something to say. Nothing here may ever break the page.
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { errorText } from '../../../engine/text.ts'
import { PROTOCOL_VERSION, type AgentState } from '../protocol/events.ts'
import { fromEngineEvent } from '../protocol/from-engine.ts'
import { CONTENT_SOURCE } from '../protocol/messages.ts'
import { isTagged } from '../protocol/tag.ts'
import { createPageBridge } from './page-bridge.ts'
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
  const loadedAt = builtins.now()
  const url = win.location.href
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const zeroCode = createOriginMode(win)
  let wireAgents = (): AgentState[] => []
  const page = createPageBridge({ win, builtins, guard, loadedAt, url, wireAgents: () => wireAgents(), setZeroCode: zeroCode.set })

  const recentCalls = createRecentCalls()
  guard.subscribe((event) => {
    if (event.type === 'call') recentCalls.add(event.tool, event.canonicalArguments)
    page.push(fromEngineEvent(event))
  })

  Object.defineProperty(win, GLOBAL_NAME, {
    value: createPageGuard(guard, PROTOCOL_VERSION, page.fault),
    writable: false,
    enumerable: false,
    configurable: false,
  })

  builtins.onMessage(
    (source, data) => {
      // Not tagged as the relay's: other scripts' traffic (our own batches included), not counted.
      if (isTagged(data, CONTENT_SOURCE)) page.fromRelay(source, data)
    },
    (error) => page.fault(`a message from the extension could not be handled: ${errorText(error)}`),
  )

  try {
    wireAgents = installFetchInterceptor({
      target: win,
      config: () => guard.config,
      mode: zeroCode.current,
      emit: page.emit,
      hookSaw: recentCalls.has,
    }).snapshot
  } catch (error) {
    page.fault(`fetch interception is off: ${errorText(error)}`)
  }
}

try {
  install(window)
} catch {
  // Never break the page: without the bridge the page runs exactly as it would without us.
}
