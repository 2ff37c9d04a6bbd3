// What the page sees of an error a hooked native throws, in Firefox ESR with the Firefox build and
// without it: the same stack, caught or not, with no frame of the extension's (Firefox shows the
// extension's frames as `<anonymous code>`). The script, line and column window.onerror is given
// are Firefox's record of where the native made the error, inside the hook (docs/security.md, "Errors
// through the hooks"). The calls are the page's own (test/fixtures/extension/hook-errors.js).
import type { Page } from 'puppeteer-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { serveFixtures } from '../extension/fixture.ts'
import { launchFirefox, type Firefox } from '../support/firefox.ts'
import { caughtAsWithout, HOOK_ERROR_NAMES, hookErrorNames, uncaughtAsWithout } from '../support/hook-errors.ts'
import type { TestServer } from '../support/server.ts'

let server: TestServer
let browsers: Firefox[] = []
let pages: [Page, Page]

beforeAll(async () => {
  server = await serveFixtures()
  browsers = await Promise.all([launchFirefox(), launchFirefox({ extension: false })])
  pages = (await Promise.all(
    browsers.map(async (browser) => {
      const page = await browser.newPage()
      await page.goto(`${server.origin}/hook-errors.html`, { waitUntil: 'load' })
      return page
    }),
  )) as [Page, Page]
  expect(await hookErrorNames(pages[0])).toEqual(HOOK_ERROR_NAMES)
})

afterAll(async () => {
  await Promise.all(browsers.map((browser) => browser.close()))
  await server?.close()
})

test.each(HOOK_ERROR_NAMES)('%s, caught: the stack it has without the extension', async (name) => {
  const stack = await caughtAsWithout(pages, name)
  expect(stack).toMatch(new RegExp(`^${name}@${server.origin}/hook-errors\\.js:`))
  expect(stack).not.toContain('<anonymous code>')
  expect(stack).not.toContain('moz-extension://')
})

test.each(HOOK_ERROR_NAMES)('%s, uncaught: window.onerror gets the message and the stack it gets without the extension', async (name) => {
  const { stack } = await uncaughtAsWithout(pages, name)
  expect(stack).toMatch(new RegExp(`^${name}@${server.origin}/hook-errors\\.js:`))
  expect(stack).not.toContain('<anonymous code>')
})
