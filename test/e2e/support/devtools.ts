// Drives the DevTools window Chromium opens for a tab (launch({ devtools: true })), the way users
// reach the panel: DevTools' own frontend modules, loaded in its page, list and show its panels
// and switch its theme.
import { chromium, type Browser as CdpConnection, type Frame, type Page } from 'playwright-core'

/** DevTools' theme setting: 'default' is light. */
type DevToolsTheme = 'default' | 'dark'

export interface DevTools {
  /** The devtools_app.html page. */
  readonly page: Page
  /** The ids of the panels in DevTools' tab strip, in order. */
  panelIds(): Promise<string[]>
  /** Shows the panel `id` once DevTools has registered it. */
  showPanel(id: string): Promise<void>
  /** The frame of a shown panel whose URL holds `path`. */
  panelFrame(path: string): Promise<Frame>
  setTheme(theme: DevToolsTheme): Promise<void>
  /** Disconnects from the browser (DevTools and the browser stay open). */
  disconnect(): Promise<void>
}

/** The modules the DevTools page loads for us; only the parts the tests touch are typed. */
interface Frontend {
  readonly UI: {
    readonly InspectorView: {
      readonly InspectorView: {
        instance(): { readonly tabbedPane: { readonly tabs: Iterable<{ readonly id: string }> }; showPanel(id: string): Promise<unknown> }
      }
    }
  }
  readonly Common: {
    readonly Settings: { readonly Settings: { instance(): { moduleSetting(name: string): { set(value: string): void } } } }
  }
}
type FrontendWindow = { __rtgFrontend: Frontend }

// A string, not a function: vitest rewrites import() in test code, and this runs in DevTools.
const LOAD_FRONTEND = `Promise.all([import('./ui/legacy/legacy.js'), import('./core/common/common.js'), import('./core/sdk/sdk.js')])
  .then(([UI, Common, SDK]) => {
    globalThis.__rtgFrontend = { UI, Common }
    return SDK.TargetManager.TargetManager.instance().primaryPageTarget()?.inspectedURL() ?? ''
  })`

const DEVTOOLS_APP = 'devtools://devtools/bundled/devtools_app.html'
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms))

/**
 * Connects over CDP to the DevTools window inspecting `inspectedUrl`. A DevTools window starts as
 * a target of type "other" and only a connection made once it is a "page" lists it, so this waits
 * for /json/list to show it as a page titled after the inspected URL before connecting.
 */
export async function devToolsFor(endpoint: string, inspectedUrl: string): Promise<DevTools> {
  const title = `DevTools - ${inspectedUrl.replace(/^[a-z]+:\/\//, '')}`
  const listed = async () =>
    ((await (await fetch(`${endpoint}/json/list`)).json()) as { type: string; url: string; title: string }[]).some((t) => t.type === 'page' && t.url.startsWith(DEVTOOLS_APP) && t.title === title)
  for (let attempt = 0; attempt < 60 && !(await listed()); attempt++) await pause(250)
  for (let attempt = 0; attempt < 10; attempt++) {
    const connection = await chromium.connectOverCDP(endpoint)
    for (const page of connection.contexts().flatMap((c) => c.pages())) {
      if (!page.url().startsWith(DEVTOOLS_APP)) continue
      const inspected = await page.evaluate(LOAD_FRONTEND).catch(() => '')
      if (inspected === inspectedUrl) return driver(connection, page)
    }
    await connection.close()
    await pause(250)
  }
  throw new Error(`no DevTools window inspects ${inspectedUrl}`)
}

function driver(connection: CdpConnection, page: Page): DevTools {
  const panelIds = () => page.evaluate(() => [...(globalThis as unknown as FrontendWindow).__rtgFrontend.UI.InspectorView.InspectorView.instance().tabbedPane.tabs].map((t) => t.id))

  return {
    page,
    panelIds,
    async showPanel(id) {
      for (let attempt = 0; attempt < 60 && !(await panelIds()).includes(id); attempt++) await pause(250)
      await page.evaluate((id) => (globalThis as unknown as FrontendWindow).__rtgFrontend.UI.InspectorView.InspectorView.instance().showPanel(id), id)
    },
    async panelFrame(path) {
      for (let attempt = 0; attempt < 60; attempt++) {
        const frame = page.frames().find((f) => f.url().includes(path))
        if (frame) return frame
        await pause(250)
      }
      throw new Error(`no frame of ${path} in DevTools`)
    },
    async setTheme(theme) {
      await page.evaluate((theme) => (globalThis as unknown as FrontendWindow).__rtgFrontend.Common.Settings.Settings.instance().moduleSetting('ui-theme').set(theme), theme)
    },
    disconnect: () => connection.close(),
  }
}
