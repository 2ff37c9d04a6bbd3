// What the page sees of an error a hooked native throws, in Chromium with the built extension and
// without it: the same stack, with no frame of the extension's, caught or not (window.onerror gets
// the same message and error; what error-reporting scripts file is that error's stack). The
// script, line and column window.onerror is given still name page.js: Chromium takes them from the
// rethrow (docs/security.md, "Errors through the hooks"). The calls are the page's own
// (test/fixtures/extension/hook-errors.js).
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { caughtAsWithout, HOOK_ERROR_NAMES, hookErrorNames, uncaughtAsWithout } from '../support/hook-errors.ts'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR } from './fixture.ts'

const stage = useStage({ folder: FIXTURES_DIR, plain: true })

describe('an error a hooked native throws, as the page sees it', () => {
  let pages: [Page, Page]
  beforeAll(async () => {
    pages = (await Promise.all(
      [stage.browser, stage.plain].map(async (browser) => {
        const page = await browser.context.newPage()
        await page.goto(`${stage.server.origin}/hook-errors.html`)
        return page
      }),
    )) as [Page, Page]
    expect(await hookErrorNames(pages[0])).toEqual(HOOK_ERROR_NAMES)
  })
  afterAll(async () => {
    for (const page of pages ?? []) await page.close()
  })

  test.each(HOOK_ERROR_NAMES)('%s, caught: the stack it has without the extension', async (name) => {
    const stack = await caughtAsWithout(pages, name)
    expect(stack).toContain(`at Object.${name} (${stage.server.origin}/hook-errors.js:`)
    expect(stack).not.toContain('chrome-extension://')
  })

  test.each(HOOK_ERROR_NAMES)('%s, uncaught: window.onerror gets the message and the stack it gets without the extension', async (name) => {
    const { stack } = await uncaughtAsWithout(pages, name)
    expect(stack).toContain(`at ${name} (${stage.server.origin}/hook-errors.js:`)
    expect(stack).not.toContain('chrome-extension://')
  })
})
