// The isolated-world relay, run at document_start in every frame. It hands the page script its end
// of their private channel (page-channel.ts), then only listens on its own: a page that never runs
// an agent costs no storage read, no port to the service worker, and not even the running of the
// relay's code. The page script's first message starts the bridge (bridge.ts); a panel opened on
// the tab asks an idle top page to report its load.
import type { Bridge } from './bridge.ts'
import { onDemand } from './deferred.ts'
import { offerPageChannel } from './page-channel.ts'

let bridge: Bridge | undefined

const page = offerPageChannel((data) => {
  bridge ??= onDemand().startBridge(page.post)
  if (!bridge.alive) return page.close()
  bridge.receive(data)
})

/** `run` once the page has loaded and the browser has a moment to spare. */
function afterLoad(run: () => void): void {
  const whenIdle = () => void requestIdleCallback(run, { timeout: 1_000 })
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', whenIdle, { once: true })
}

// Only the top frame's load is a row in the panel, and the first touch of `chrome.runtime` costs
// each frame more than all the rest of this script: the frames below are never asked, and the top
// frame listens once its page has loaded, not before the page's first script (the worker calls
// again until it listens: background/wake-top-frame.ts).
if (window === window.top) afterLoad(() => chrome.runtime.onMessage.addListener((message: unknown) => void onDemand().wakePage(message, bridge, page.post)))
