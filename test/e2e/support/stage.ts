// A test file's server and browsers: started before its tests, closed after them. The server holds
// the file's pages (built for it and removed after, or a folder served as it is), its own routes and
// the mock model; the browser loads the built extension, and a second one without it runs the same
// page for comparison.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launch, type Browser, type LaunchOptions } from './browser.ts'
import { mountMockLlm, type MockLlm } from './mock-llm.ts'
import { serve, type TestServer } from './server.ts'

interface Pages {
  readonly dir: string
  remove(): Promise<void>
}

interface StageOptions {
  /** Builds the pages the server serves. */
  readonly pages?: () => Promise<Pages>
  /** A folder the server also serves, as it is. */
  readonly folder?: string
  /** Adds the file's own routes; they answer before the mock model. */
  readonly routes?: (server: TestServer) => void
  /** How to launch the browser with the extension; a function when a switch names the server's origin. */
  readonly launch?: LaunchOptions | ((server: TestServer) => LaunchOptions)
  /** Also launch a browser without the extension (with these options, if any). */
  readonly plain?: true | Omit<LaunchOptions, 'extension'>
}

export interface Stage {
  readonly server: TestServer
  readonly mock: MockLlm
  /** The browser with the built extension (unless the launch options load another or none). */
  readonly browser: Browser
  /** The browser without it, if the options asked for one. */
  readonly plain: Browser
  /** Opens `path` of the server in a new tab of `browser`; with the tab id Chrome gave it. */
  open(path: string): Promise<{ page: Page; tabId: number }>
}

/** Registers the start and the end of `options`' stage with the test file; its parts are there from the file's first test on. */
export function useStage(options: StageOptions = {}): Stage {
  let pages: Pages | undefined
  let parts: { server: TestServer; mock: MockLlm; browser?: Browser; plain?: Browser } | undefined

  beforeAll(async () => {
    pages = await options.pages?.()
    const server = await serve([pages?.dir, options.folder].filter((dir) => dir !== undefined))
    options.routes?.(server)
    parts = { server, mock: mountMockLlm(server) }
    const withExtension = typeof options.launch === 'function' ? options.launch(server) : options.launch
    ;[parts.browser, parts.plain] = await Promise.all([launch(withExtension), options.plain && launch({ ...(options.plain === true ? {} : options.plain), extension: false })])
  })

  afterAll(async () => {
    await Promise.all([parts?.browser?.close(), parts?.plain?.close()])
    await parts?.server.close()
    await pages?.remove()
  })

  const part = <K extends 'server' | 'mock' | 'browser' | 'plain'>(key: K): Stage[K] => {
    const value = parts?.[key]
    if (value === undefined) throw new Error(`the stage's ${key} is not there: used before the file's tests, or not asked for`)
    return value as Stage[K]
  }
  return {
    get server() {
      return part('server')
    },
    get mock() {
      return part('mock')
    },
    get browser() {
      return part('browser')
    },
    get plain() {
      return part('plain')
    },
    async open(path) {
      const browser = part('browser')
      const page = await browser.context.newPage()
      await page.goto(`${part('server').origin}/${path}`)
      return { page, tabId: await browser.tabId(page) }
    },
  }
}
