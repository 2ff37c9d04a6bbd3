// The MAIN-world script, run at document_start in every frame before any page script. It does the
// least a page that never runs an agent must pay for: it captures the built-ins (the engine's,
// engine/intrinsics.ts, and its own, builtins.ts) and configures the engine's serialiser with them
// (engine/stringifiers.ts), installs `window.__REPEAT_TOOL_GUARD__` and each transport's hook
// (fetch, XMLHttpRequest, WebMCP, WebLLM's worker, WebSocket, WebRTC data channels: docs/zero-code.md, "Reach"), and waits for its
// end of the private channel to the relay (relay-channel.ts), which the relay hands over before any
// page script runs. The engine's guard, the bridge to the relay and the analyses are the on-demand
// half's (on-demand.ts), run by the first call of the page API, the first request that may be an
// LLM request (or tool call) or the first message of the relay; it uses what was made here, so
// whatever the page replaces meanwhile changes nothing. Nothing here may ever break the page.
// Evaluated first, at document_start: the built-ins the engine calls and its serialiser, made
// before any page script can replace a built-in (the on-demand half is handed these instances).
import '../../../engine/intrinsics.ts'
import '../../../engine/stringifiers.ts'
import { errorText } from '../../../engine/safe-reading.ts'
import { PROTOCOL_VERSION } from '../protocol/events.ts'
import { captureBuiltins } from './builtins.ts'
import { onDemand } from './deferred.ts'
import { installFetchInterceptor } from './fetch/install.ts'
import { createNativeLook } from './native-look.ts'
import { createOriginMode } from './origin-mode.ts'
import { createPageFacade } from './page-facade.ts'
import { installDataChannelHooks } from './realtime/data-channel.ts'
import { installRealtimeHooks } from './realtime/install.ts'
import { createResponseWatch, type ResponseWatch } from './responses/watch.ts'
import { awaitRelayChannel } from './relay-channel.ts'
import { installWebllmInterceptor } from './webllm/install.ts'
import { installWebMcpHooks } from './webmcp/install.ts'
import { installXhrInterceptor } from './xhr/install.ts'

const GLOBAL_NAME = '__REPEAT_TOOL_GUARD__'

function install(win: Window & typeof globalThis): void {
  // Already there: this frame was set up before (the script must never run twice on one window).
  if (Object.hasOwn(win, GLOBAL_NAME)) return
  const builtins = captureBuiltins(win)
  // The origin now, before a page script could replace `window.origin`; `location` (its first touch
  // costs every frame) only once needed.
  const origin = win.origin
  let page: ReturnType<ReturnType<typeof onDemand>['startPage']> | undefined
  const started = () => (page ??= onDemand().startPage(startUp))
  // Listening before the relay runs (this script runs first): every message on the channel is the
  // relay's, checked by the on-demand half.
  const toRelay = awaitRelayChannel(
    win,
    (data) => started().fromRelay(data),
    (error) => started().fault(`a message from the extension could not be handled: ${errorText(error)}`),
  )
  const startUp = { win, builtins, loadedAt: builtins.now(), origin, zeroCode: createOriginMode(win, origin), toRelay }

  Object.defineProperty(win, GLOBAL_NAME, {
    value: createPageFacade(PROTOCOL_VERSION, () => started().api),
    writable: false,
    enumerable: false,
    configurable: false,
  })

  // Each transport's hook (docs/zero-code.md, "Reach") stands on its own: one failing leaves the others in place.
  const showAsNative = createNativeLook(win)
  // Made by the first request that may be an LLM request (its built-ins are captured then).
  let watch: ResponseWatch | undefined
  const responseWatch = () => (watch ??= createResponseWatch(win, showAsNative))
  // Every transport's request is analysed with all the page has read of the responses it watches
  // (responses/later-reading.ts).
  const analysis = () => {
    watch?.flush()
    return started().wireAnalysis()
  }
  const hooks = { target: win, mode: startUp.zeroCode.current, analysis, showAsNative }
  const transports: readonly (readonly [string, () => unknown])[] = [
    ['fetch interception', () => installFetchInterceptor({ ...hooks, responses: () => started().responses(), streams: () => started().streams(), watch: responseWatch })],
    ['XMLHttpRequest interception', () => installXhrInterceptor(hooks)],
    ['WebMCP hooks', () => installWebMcpHooks({ ...hooks, analysis: () => started().webMcpAnalysis() })],
    ['WebLLM interception', () => installWebllmInterceptor(hooks)],
    ['WebSocket interception', () => installRealtimeHooks(hooks)],
    ['WebRTC data channel hooks', () => installDataChannelHooks(hooks)],
  ]
  for (const [name, installHook] of transports) {
    try {
      installHook()
    } catch (error) {
      started().fault(`${name} is off: ${errorText(error)}`)
    }
  }
}

try {
  install(window)
} catch {
  // Never break the page: without the bridge the page runs exactly as it would without us.
}
