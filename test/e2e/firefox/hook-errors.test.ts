// What the page sees of an error a hooked native throws, in Firefox ESR with the Firefox build and
// without it: the same stack, caught or not, with no frame of the extension's (Firefox shows the
// extension's frames as `<anonymous code>`). The script, line and column window.onerror is given
// are Firefox's record of where the native made the error, inside the hook (docs/security.md, "Errors
// through the hooks"). The calls are the page's own (test/fixtures/extension/hook-errors.js).
import type { Page } from 'puppeteer-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { serveFixtures } from '../extension/fixture.ts'
import { caughtStack, HOOK_ERROR_NAMES as NAMES, hookErrorNames, uncaughtError } from '../extension/hook-errors-page.ts'
import { launchFirefox, type Firefox } from '../support/firefox.ts'
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
  expect(await pages[0].evaluate(hookErrorNames)).toEqual(NAMES)
})

afterAll(async () => {
  await Promise.all(browsers.map((browser) => browser.close()))
  await server?.close()
})

test.each(NAMES)('%s, caught: the stack it has without the extension', async (name) => {
  const [withExtension, without] = await Promise.all(pages.map((page) => page.evaluate(caughtStack, name)))
  expect(withExtension).toBe(without)
  expect(withExtension).toMatch(new RegExp(`^${name}@${server.origin}/hook-errors\\.js:`))
  expect(withExtension).not.toContain('<anonymous code>')
  expect(withExtension).not.toContain('moz-extension://')
})

test.each(NAMES)('%s, uncaught: window.onerror gets the message and the stack it gets without the extension', async (name) => {
  const [withExtension, without] = await Promise.all(pages.map((page) => page.evaluate(uncaughtError, name)))
  expect(withExtension).toEqual(without)
  expect(withExtension.stack).toMatch(new RegExp(`^${name}@${server.origin}/hook-errors\\.js:`))
  expect(withExtension.stack).not.toContain('<anonymous code>')
})
