import browser from 'webextension-polyfill'
import { inspectedTabId } from '../ui/inspected-tab.ts'

/**
 * The tab the popup describes: `?tabId=N` when given (the popup opened as a page), else the active
 * tab of the popup's window. Querying tabs without the `tabs` permission gives ids, no URLs, and
 * an id is all the popup needs: the service worker knows the tab's page from its batches.
 */
export async function popupTabId(): Promise<number | undefined> {
  const given = inspectedTabId()
  if (given !== undefined) return given
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true })
  return tab?.id
}
