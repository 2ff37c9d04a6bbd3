// The toolbar action's popup (popup.html): the active tab's agents, reminders and zero-code
// setting. Also opens as a page with ?tabId=N.
import { render } from 'preact'
import { errorText } from '../../../engine/safe-reading.ts'
import { createStorageZeroCodeSink } from '../ui/storage-zero-code-sink.ts'
import '../ui/theme.css'
import { Popup, type PopupState } from './popup.tsx'
import './popup.css'
import { popupTabId } from './popup-tab.ts'
import { requestTabSummary } from './tab-summary-request.ts'

async function load(): Promise<PopupState> {
  const tabId = await popupTabId()
  if (tabId === undefined) return { kind: 'failed', reason: 'No tab to describe.' }
  return { kind: 'ready', tabId, summary: await requestTabSummary(tabId) }
}

async function main(root: HTMLElement): Promise<void> {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches
  root.className = `rtg-inspector rtg-popup-root rtg-theme-${dark ? 'dark' : 'light'}`
  const zeroCode = await createStorageZeroCodeSink()
  const draw = (state: PopupState) => render(<Popup state={state} zeroCode={zeroCode} />, root)
  draw({ kind: 'loading' })
  draw(await load().catch((error: unknown): PopupState => ({ kind: 'failed', reason: errorText(error) })))
}

void main(document.getElementById('app')!)
