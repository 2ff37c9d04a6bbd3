// Where zero-code mode rewrites, in Chromium: a site on another host name is observed by default
// (its LLM requests reach the server byte for byte, the panel shows where each reminder would
// go), one click in the panel switches it to guard, and the next request gets the reminder. No
// key in a request URL or the page URL reaches the panel or its export. Keep-alive requests are
// never delayed or pushed past 64 KB, and an init made from a class keeps its fields.
import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { geminiBody, openaiChatBody, repeat, requests, type Script } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { exportSession } from '../support/panel-export.ts'
import { useStage } from '../support/stage.ts'
import { routeBlankPage } from './blank-page.ts'

const KEY = 'AIzaSy-e2e-secret-key'
const PAGE_TOKEN = 'page-secret-token'
const SYSTEM = 'You are an observed agent.'
const LOOP: Script = { system: SYSTEM, turns: [{ prompt: 'Find it.' }, ...repeat({ name: 'search', args: { q: 'it' } }, 3)] }

const stage = useStage({
  routes: routeBlankPage,
  // Any *.test host name is this machine: an origin that is not local, served by the same server.
  launch: { args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] },
})
let port: string

beforeAll(() => {
  port = new URL(stage.server.origin).port
  stage.mock.script('origin-model', { steps: [], answer: 'ok' })
  stage.mock.script('keepalive-model', { steps: [], answer: 'ok' })
})

/** Sends `body` from the page with fetch, as an SDK would; resolves to the response status. */
function send(page: Page, path: string, body: string, extra: Record<string, unknown> = {}): Promise<number> {
  return page.evaluate(
    // The response is read whole: a keep-alive request counts against the browser's 64 KB until it is done.
    ({ path, body, extra }) => fetch(path, { method: 'POST', body, headers: { 'content-type': 'application/json' }, ...extra }).then(async (r) => (await r.text(), r.status)),
    { path, body, extra },
  )
}

const lastBody = () => stage.mock.exchanges.at(-1)!.body

test('a site that is not local is observed: requests go out byte for byte, the panel shows where reminders would go, one click guards it', async () => {
  const page = await stage.browser.context.newPage()
  const origin = `http://agent.test:${port}`
  await page.goto(`${origin}/blank?token=${PAGE_TOKEN}#access_token=${PAGE_TOKEN}`)
  const tabId = await stage.browser.tabId(page)
  const path = `/v1beta/models/origin-model:generateContent?key=${KEY}`
  const bodies = requests(LOOP, geminiBody).map((b) => JSON.stringify(b, null, 1))
  for (const body of bodies) {
    expect(await send(page, path, body)).toBe(200)
    expect(lastBody()).toBe(body)
  }

  const panel = await stage.browser.openPanel(tabId)
  await expect.poll(() => panel.getByTestId('zero-code').textContent()).toContain(`Zero-code: observe · agent.test:${port}`)
  await panel.getByTestId('agent-row').filter({ hasText: SYSTEM }).click()
  const placement = panel.locator('[data-testid="timeline-row"][data-kind="reminder"] .rtg-placement')
  await expect.poll(() => placement.allTextContents()).toEqual(['would insert at contents[7]'])
  expect(await panel.getByTestId('reminder-text').allTextContents()).toEqual([GENTLE])
  const outcomes = await panel.getByTestId('request-outcome').allTextContents()
  expect(outcomes).toHaveLength(bodies.length - 1)
  expect(outcomes.at(-1)).toBe('3 calls · observed, not rewritten (1 reminder would be inserted)')

  // Secrets: neither the key of the request URL nor the page's token, shown or exported.
  expect(await panel.content()).not.toContain(KEY)
  const exported = await exportSession(panel)
  expect(exported).toContain('generateContent?key=REDACTED')
  expect(exported).toContain(`${origin}/blank?token=REDACTED`)
  for (const secret of [KEY, PAGE_TOKEN]) {
    expect(exported).not.toContain(secret)
    expect(await panel.content()).not.toContain(secret)
  }

  // One click: guard. The page learns it through storage; from then on the reminder goes in.
  await panel.getByTestId('zero-code-guard').click()
  await expect.poll(() => panel.getByTestId('zero-code-mode').textContent()).toBe('guard')
  const stored = await (await stage.browser.worker()).evaluate(() => chrome.storage.local.get('zeroCodeOrigins'))
  expect(stored).toEqual({ zeroCodeOrigins: { [origin]: 'guard' } })
  const last = bodies.at(-1)!
  await expect.poll(async () => (await send(page, path, last), JSON.parse(lastBody()).contents[7]), { interval: 100 }).toEqual({ role: 'user', parts: [{ text: GENTLE }] })
  await expect.poll(() => panel.getByTestId('request-outcome').last().textContent()).toBe('3 calls · 1 reminder inserted · body rewritten')
  await panel.close()
  await page.close()
})

test('a local site is guarded by default; the panel switches it to observe and the request goes out as made', async () => {
  const page = await stage.browser.context.newPage()
  await page.goto(`${stage.server.origin}/blank`)
  const panel = await stage.browser.openPanel(await stage.browser.tabId(page))
  await expect.poll(() => panel.getByTestId('zero-code').textContent()).toContain(`Zero-code: guard · 127.0.0.1:${port}`)
  const body = JSON.stringify(openaiChatBody({ ...LOOP, system: 'You are a local agent.' }))
  const chat = (text: string) => JSON.stringify({ ...JSON.parse(text), model: 'origin-model' })
  expect(await send(page, '/v1/chat/completions', chat(body))).toBe(200)
  expect(JSON.parse(lastBody()).messages[8]).toEqual({ role: 'user', content: GENTLE })
  await panel.getByTestId('zero-code-observe').click()
  // Observe, shown and stored: not off, which would also send the request as made.
  await expect.poll(() => panel.getByTestId('zero-code-mode').textContent()).toBe('observe')
  const stored = await (await stage.browser.worker()).evaluate(() => chrome.storage.local.get('zeroCodeOrigins'))
  expect(stored).toMatchObject({ zeroCodeOrigins: { [stage.server.origin]: 'observe' } })
  await expect.poll(async () => (await send(page, '/v1/chat/completions', chat(body)), lastBody()), { interval: 100 }).toBe(chat(body))
  // Still analysed and reported: the panel shows the request observed, with the reminder it would have carried.
  await expect.poll(() => panel.getByTestId('request-outcome').last().textContent()).toBe('3 calls · observed, not rewritten (1 reminder would be inserted)')
  await panel.close()
  await page.close()
})

test('keep-alive: a Request goes out untouched, a body is never pushed past 64 KB, and a class-made init keeps its fields', async () => {
  const page = await stage.browser.context.newPage()
  // localhost: a local origin of its own, guarded by default (127.0.0.1 was switched above).
  await page.goto(`http://localhost:${port}/blank`)
  const model = (script: Script) => JSON.stringify({ ...openaiChatBody(script), model: 'keepalive-model' })
  const small = model({ ...LOOP, system: 'You are a beacon agent.' })
  const sent = await page.evaluate(async (body) => {
    const request = new Request('/v1/chat/completions', { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } })
    const response = await fetch(request)
    await response.text()
    return response.status
  }, small)
  expect(sent).toBe(200)
  expect(lastBody()).toBe(small)

  // A body just under 64 KB: the reminder would take it over.
  const padded = (system: string) => {
    const base = model({ ...LOOP, system })
    return model({ ...LOOP, system: system + 'x'.repeat(65_500 - base.length) })
  }
  const big = padded('You are a keep-alive agent.')
  expect(big.length).toBe(65_500)
  expect(await send(page, '/v1/chat/completions', big, { keepalive: true })).toBe(200)
  expect(lastBody()).toBe(big)
  // Without keep-alive the same conversation gets its reminder: it was withheld for the limit only.
  expect(await send(page, '/v1/chat/completions', big)).toBe(200)
  expect(JSON.parse(lastBody()).messages[8]).toEqual({ role: 'user', content: GENTLE })

  const classMade = model({ ...LOOP, system: 'You are a class-made agent.' })
  expect(
    await page.evaluate(async (body) => {
      class Options {
        #trace = 'from-a-getter'
        body = body
        get method() {
          return 'POST'
        }
        get headers() {
          return { 'content-type': 'application/json', 'x-trace': this.#trace }
        }
      }
      return (await fetch('/v1/chat/completions', new Options() as RequestInit)).status
    }, classMade),
  ).toBe(200)
  const exchange = stage.mock.exchanges.at(-1)!
  expect(exchange.headers['x-trace']).toBe('from-a-getter')
  expect(JSON.parse(exchange.body).messages[8]).toEqual({ role: 'user', content: GENTLE })

  const panel = await stage.browser.openPanel(await stage.browser.tabId(page))
  await expect.poll(() => panel.getByTestId('request-outcome').allTextContents()).toContain('3 calls · not rewritten: 1 reminder would pass the 64 KB keep-alive limit')
  await panel.close()
  await page.close()
})
