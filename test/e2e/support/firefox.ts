// Launches Debian's Firefox ESR with the built Firefox extension installed as a temporary add-on,
// driven by puppeteer-core over WebDriver BiDi.
import puppeteer, { type Page } from 'puppeteer-core'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DIST_DIR } from './browser.ts'

export const FIREFOX_EXTENSION_DIR = resolve(DIST_DIR, 'firefox')

/** Fixed by a pref, so extension pages have a known address. */
const EXTENSION_UUID = '5d0c3b7e-8f7a-4c8e-9a55-2f1de0a7c001'

export function firefoxPath(): string {
  const path = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'
  if (!existsSync(path)) throw new Error(`Firefox not found at ${path}: install it (apt-get install -y firefox-esr) or set FIREFOX_PATH`)
  return path
}

export interface Firefox {
  newPage(): Promise<Page>
  /** The tab id Firefox gave `page`, asked of an extension page. */
  tabId(page: Page): Promise<number>
  /** Opens the panel as an ordinary tab, inspecting `tabId`. */
  openPanel(tabId: number): Promise<Page>
  /** Opens the toolbar's popup as an ordinary tab, describing `tabId`. */
  openPopup(tabId: number): Promise<Page>
  close(): Promise<void>
}

/** `extension: false`: a Firefox without it, to run the same page for comparison (it has no panel). */
export async function launchFirefox({ extension = true }: { readonly extension?: boolean } = {}): Promise<Firefox> {
  const manifestPath = join(FIREFOX_EXTENSION_DIR, 'manifest.json')
  if (extension && !existsSync(manifestPath)) throw new Error(`no built Firefox extension at ${FIREFOX_EXTENSION_DIR}: run npm run build`)
  const geckoId: string = extension ? JSON.parse(readFileSync(manifestPath, 'utf8')).browser_specific_settings.gecko.id : 'none'
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath(),
    headless: true,
    // Recent Firefox refuses WebDriver navigations to moz-extension: pages without it, and the
    // panel is opened as a page by its address.
    args: ['--remote-allow-system-access'],
    // The height of a docked DevTools panel: puppeteer's default 600 pixels leave the panel's
    // virtual timeline room for five rows under the agent list and its notes. Puppeteer sets a
    // new page's default viewport with the screen orientation too, and bears a Firefox that lacks
    // that command (as Firefox ESR 140 does); a viewport set on a page afterwards would not.
    defaultViewport: { width: 1200, height: 900 },
    extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [geckoId]: EXTENSION_UUID }) },
  })
  if (extension) await browser.installExtension(FIREFOX_EXTENSION_DIR)
  const extensionOrigin = `moz-extension://${EXTENSION_UUID}/`

  /**
   * Opens an extension page. Firefox moves the tab to the extension's process, and puppeteer's
   * navigation never settles (the page keeps reporting about:blank): wait for the document instead.
   */
  async function openExtensionPage(path: string): Promise<Page> {
    const page = await browser.newPage()
    const url = `${extensionOrigin}${path}`
    page.goto(url, { waitUntil: 'domcontentloaded', timeout: 15_000 }).catch(() => undefined)
    for (let attempt = 0; attempt < 100; attempt++) {
      const at = await page.evaluate(() => (document.readyState === 'loading' ? '' : location.href)).catch(() => '')
      if (at === url) return page
      await new Promise((wait) => setTimeout(wait, 100))
    }
    throw new Error(`${url} did not load`)
  }

  async function tabId(page: Page): Promise<number> {
    // The extension holds no "tabs" permission, so tabs carry no url: find the page's tab as the
    // active one once the page is brought to the front, asked from a background tab.
    const helper = await openExtensionPage('panel.html?tabId=-1')
    await page.bringToFront()
    const id = await helper.evaluate(async () => (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id)
    await helper.close()
    if (id === undefined) throw new Error(`no tab for ${page.url()}`)
    return id
  }

  return {
    newPage: () => browser.newPage(),
    tabId,
    openPanel: (id) => openExtensionPage(`panel.html?tabId=${id}`),
    openPopup: (id) => openExtensionPage(`popup.html?tabId=${id}`),
    close: () => browser.close(),
  }
}
