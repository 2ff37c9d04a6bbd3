// The channel between the page script and the relay in Firefox ESR, where the relay's offer crosses
// from the isolated world's Xray view of the window into the page's (docs/security.md, "The channel
// between the page script and the relay"): the relay's messages forged on the window change
// nothing, a window listener never sees the stored settings, and a forged offer reaches nothing.
import type { Page } from 'puppeteer-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { CHANNEL_EVENT, CONFIG_STORAGE_KEY, CONTENT_SOURCE } from '../../../extension/src/protocol/messages.ts'
import { ZERO_CODE_STORAGE_KEY } from '../../../extension/src/protocol/zero-code-mode.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { serveFixtures, type AgentWindow } from '../extension/fixture.ts'
import { forgedChannelGot, loopBody, offerForgedChannel, postToSelf, relayForgeries, seenOnWindow, sendChat, userTexts, watchWindow } from '../extension/forgeries.ts'
import { launchFirefox, type Firefox } from '../support/firefox.ts'
import { mountMockLlm, type MockLlm } from '../support/mock-llm.ts'
import type { TestServer } from '../support/server.ts'

const MODEL = 'channel-model'
const relay = { source: CONTENT_SOURCE, v: PROTOCOL_VERSION }
let firefox: Firefox
let server: TestServer
let llm: MockLlm
let page: Page

beforeAll(async () => {
  server = await serveFixtures()
  llm = mountMockLlm(server)
  llm.script(MODEL, { steps: [], answer: 'ok' })
  firefox = await launchFirefox()
})

afterAll(async () => {
  await firefox?.close()
  await server?.close()
})

/** Sets the extension's storage from one of its pages: `value` undefined removes `key`. */
async function store(items: Record<string, unknown>): Promise<void> {
  const extensionPage = await firefox.openPanel(-1)
  await extensionPage.evaluate(async (items) => {
    for (const [key, value] of Object.entries(items)) await (value === undefined ? chrome.storage.local.remove(key) : chrome.storage.local.set({ [key]: value }))
  }, items)
  await extensionPage.close()
}

// Nothing stored (every origin on its default: guard for this local server), and a fresh tab.
beforeEach(async () => {
  await store({ [CONFIG_STORAGE_KEY]: undefined, [ZERO_CODE_STORAGE_KEY]: undefined })
  page = await firefox.newPage()
  await page.goto(`${server.origin}/agent.html`, { waitUntil: 'domcontentloaded' })
})

afterEach(() => page.close())

const lastBody = () => llm.exchanges.filter((e) => e.model === MODEL).at(-1)!.body
const speak = (tool: string) => page.evaluate((tool) => (window as unknown as AgentWindow).__REPEAT_TOOL_GUARD__.observe({ agent: { name: 'channel' }, name: tool, arguments: {} }), tool)
const thresholds = () => page.evaluate(() => (window as unknown as AgentWindow).__REPEAT_TOOL_GUARD__.config.thresholds)

test("the relay's messages forged on the window change nothing: a guarded request still gets the reminder", async () => {
  await speak('first')
  await page.evaluate(postToSelf, relayForgeries(relay, RECOMMENDED_CONFIG))
  expect(await page.evaluate(sendChat, loopBody(MODEL, 'You are a forging agent.'))).toBe(200)
  expect(userTexts(lastBody())).toContain(GENTLE)
  expect(await thresholds()).toEqual([3, 5, 8])
})

test('a page script listening on the window never sees the stored mode or config', async () => {
  await store({ [CONFIG_STORAGE_KEY]: { thresholds: [2, 6] }, [ZERO_CODE_STORAGE_KEY]: { [server.origin]: 'observe' } })
  await page.reload({ waitUntil: 'domcontentloaded' })
  await page.evaluate(watchWindow)
  await speak('first')
  // Both settings reached the page script: the config is the stored one, and the request goes out as made.
  await expect.poll(thresholds, { interval: 100 }).toEqual([2, 6])
  const body = loopBody(MODEL, 'You are an observed agent.')
  await expect.poll(async () => (await page.evaluate(sendChat, body), lastBody()), { interval: 100 }).toBe(body)
  expect(JSON.stringify(await page.evaluate(seenOnWindow))).toBe('[]')
})

test('a channel the page offers as the relay does reaches nothing: it hears nothing, and what it says changes nothing', async () => {
  await page.evaluate(offerForgedChannel, { event: CHANNEL_EVENT, messages: relayForgeries(relay, RECOMMENDED_CONFIG) })
  await speak('after_the_offer')
  expect(await page.evaluate(sendChat, loopBody(MODEL, 'You are an offering agent.'))).toBe(200)
  expect(userTexts(lastBody())).toContain(GENTLE)
  expect(await thresholds()).toEqual([3, 5, 8])
  expect(await page.evaluate(forgedChannelGot)).toEqual([])
})
