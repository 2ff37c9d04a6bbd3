// A page that never calls the page API, sends no request that may be an LLM request and hears
// nothing from the relay never runs the page script's on-demand half: the engine, the bridge and
// the validators stay unread code. V8's own call counts (precise coverage, over CDP) say whether the
// function holding that half ran; the page is given nothing to see it by.
import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { watchOnDemandHalf } from '../support/on-demand-half.ts'
import { routeHtml } from '../support/server.ts'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR } from './fixture.ts'

const stage = useStage({
  folder: FIXTURES_DIR,
  // A page busy with everything but an agent: plain fetches, window messages of its own.
  routes: (server) =>
    // `quietDone` settles once every request has ended and the message has reached the page's own
    // listener: whatever could have started the on-demand half has by then (the page script does
    // not listen on the window at all; its channel to the relay is its own).
    routeHtml(
      server,
      '/quiet.html',
      `<!doctype html><title>quiet</title><script>
        const ended = [
          fetch('/quiet.html?get').catch(() => {}),
          fetch('/quiet.html?form', { method: 'POST', body: new URLSearchParams({ a: '1' }) }).catch(() => {}),
          fetch('/quiet.html?text', { method: 'POST', body: 'not json', headers: { 'content-type': 'text/plain' } }).catch(() => {}),
        ]
        for (const [method, body] of [['GET', null], ['POST', new URLSearchParams({ a: '1' })], ['POST', 'not json'], ['PUT', '{"a":1}']]) {
          const xhr = new XMLHttpRequest()
          ended.push(new Promise((done) => xhr.addEventListener('loadend', done)))
          xhr.open(method, '/quiet.html?xhr')
          xhr.send(body)
        }
        ended.push(new Promise((done) => addEventListener('message', (e) => e.data?.source === 'someone-else' && done())))
        postMessage({ source: 'someone-else', kind: 'config' }, '*')
        window.quietDone = Promise.all(ended).then(() => true)
      </script>`,
    ),
})

/** Waits until the quiet page's requests have ended and its message was delivered. */
const quietDone = (page: Page) => page.evaluate(() => (window as unknown as { quietDone: Promise<boolean> }).quietDone)
let page: Page
let onDemandRuns: () => Promise<number | undefined>

beforeAll(async () => {
  ;({ page, runs: onDemandRuns } = await watchOnDemandHalf(stage.browser))
})

it('runs only when the page first needs it', async () => {
  await page.goto(`${stage.server.origin}/quiet.html`, { waitUntil: 'load' })
  expect(await quietDone(page)).toBe(true)
  expect(await page.evaluate(() => typeof (window as unknown as { __REPEAT_TOOL_GUARD__?: object }).__REPEAT_TOOL_GUARD__)).toBe('object')
  expect(await onDemandRuns()).toBe(0)

  // The page API's first call runs it, once.
  expect(await page.evaluate(() => (window as unknown as { __REPEAT_TOOL_GUARD__: { snapshot(): unknown[] } }).__REPEAT_TOOL_GUARD__.snapshot())).toEqual([])
  expect(await onDemandRuns()).toBe(1)
})

it('runs for the first XMLHttpRequest that may be an LLM request', async () => {
  await page.goto(`${stage.server.origin}/quiet.html?xhr-again`, { waitUntil: 'load' })
  expect(await quietDone(page)).toBe(true)
  expect(await onDemandRuns()).toBe(0)
  await page.evaluate(() => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/quiet.html?llm', false)
    xhr.setRequestHeader('Content-Type', 'application/json')
    xhr.send('{"model":"m","messages":[]}')
  })
  expect(await onDemandRuns()).toBe(1)
})

it('runs for the first request that may be an LLM request', async () => {
  await page.goto(`${stage.server.origin}/quiet.html?again`, { waitUntil: 'load' })
  expect(await quietDone(page)).toBe(true)
  expect(await onDemandRuns()).toBe(0)
  await page.evaluate(() => fetch('/quiet.html?llm', { method: 'POST', body: '{"model":"m","messages":[]}', headers: { 'content-type': 'application/json' } }).then((r) => r.status))
  expect(await onDemandRuns()).toBe(1)
})
