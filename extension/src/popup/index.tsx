// The toolbar action's popup (popup.html): the active tab's agents, reminders and zero-code
// setting, and the Node processes behind a page served from localhost. Also opens as a page with
// ?tabId=N.
import { render } from 'preact'
import { errorText } from '../../../engine/safe-reading.ts'
import { createStorageZeroCodeSink } from '../ui/storage-zero-code-sink.ts'
import '../ui/theme.css'
import { followTabSummary } from './follow-tab-summary.ts'
import { Popup, type PopupState } from './popup.tsx'
import './popup.css'
import { popupTabId } from './popup-tab.ts'
import { requestTabSummary } from './tab-summary-request.ts'
import { countServers, type ServerCounts } from './server-counts.ts'
import { DEFAULT_BRIDGE_PORT, isLoopbackPage } from '../ui/bridge-ports.ts'
import { createStoredBridgePorts } from '../ui/stored-bridge-ports.ts'

/** Draws the tab's summary, again with each answer while its page is still silent. */
async function load(draw: (state: PopupState) => void): Promise<void> {
  const tabId = await popupTabId()
  if (tabId === undefined) return draw({ kind: 'failed', reason: 'No tab to describe.' })
  await followTabSummary({ ask: () => requestTabSummary(tabId), draw: (summary) => draw({ kind: 'ready', tabId, summary }) })
}

async function main(root: HTMLElement): Promise<void> {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches
  root.className = `rtg-inspector rtg-popup-root rtg-theme-${dark ? 'dark' : 'light'}`
  const [zeroCode, bridgePorts] = await Promise.all([createStorageZeroCodeSink(), createStoredBridgePorts()])
  let state: PopupState = { kind: 'loading' }
  let servers: ServerCounts | undefined
  const redraw = () => render(<Popup state={state} zeroCode={zeroCode} servers={servers?.counts() ?? []} />, root)
  const draw = (next: PopupState) => {
    state = next
    // A page served from localhost: its Node processes are counted too, as the panel attaches to them.
    if (servers === undefined && next.kind === 'ready' && isLoopbackPage(next.summary.pageUrl)) {
      servers = countServers([DEFAULT_BRIDGE_PORT, ...bridgePorts.ports()], redraw)
    }
    redraw()
  }
  draw({ kind: 'loading' })
  await load(draw).catch((error: unknown) => draw({ kind: 'failed', reason: errorText(error) }))
}

void main(document.getElementById('app')!)
