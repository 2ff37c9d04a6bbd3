// What a page can find of the extension on the objects it shares with it: `window.__REPEAT_TOOL_GUARD__`
// and nothing else, before the guard starts and after (the page API called, an LLM request sent).
// The same page in a browser without the extension says what the page has of its own.
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, repeat, runAgent } from './fixture.ts'

const stage = useStage({ folder: FIXTURES_DIR, plain: true })

/** The own keys (symbols by their description) of the objects a content script may touch. */
const ownKeys = (page: Page) =>
  page.evaluate(() => {
    const named = (object: object) => Reflect.ownKeys(object).map((key) => (typeof key === 'symbol' ? `Symbol(${key.description})` : key))
    const shared: Record<string, object> = {
      window,
      document,
      navigator,
      'Function.prototype': Function.prototype,
      'XMLHttpRequest.prototype': XMLHttpRequest.prototype,
      'Worker.prototype': Worker.prototype,
    }
    return Object.fromEntries(Object.entries(shared).map(([name, object]) => [name, named(object).sort()]))
  })

/** Starts everything the extension starts on demand: the page API, the bridge, zero-code mode's analysis. */
async function startGuard(page: Page): Promise<void> {
  expect(await runAgent(page, 'footprint', repeat(3, ['read_file', { path: 'a.txt' }]))).toHaveLength(3)
  const status = await page.evaluate(() =>
    fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'footprint', messages: [{ role: 'user', content: 'hi' }] }) }).then(
      (r) => r.status,
    ),
  )
  expect(status).toBeGreaterThan(0)
}

it('adds one property to the page, the page API, and no other, before the guard starts and after', async () => {
  const [withExtension, without] = await Promise.all([stage.browser.context.newPage(), stage.plain.context.newPage()])
  for (const page of [withExtension, without]) await page.goto(`${stage.server.origin}/agent.html?footprint`)
  const { window: pagesOwn, ...others } = await ownKeys(without)
  expect(pagesOwn).not.toContain('__REPEAT_TOOL_GUARD__')
  const expected = { window: [...pagesOwn!, '__REPEAT_TOOL_GUARD__'].sort(), ...others }
  expect(await ownKeys(withExtension)).toEqual(expected)

  await startGuard(withExtension)
  expect(await ownKeys(withExtension)).toEqual(expected)
})
