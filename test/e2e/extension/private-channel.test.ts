// The page script and the relay talk over a channel no page script can write to or listen on
// (docs/security.md, "The channel between the page script and the relay"), in Chromium: the relay's
// messages forged on the window change nothing, a window listener never sees the stored settings, a
// forged offer of the channel reaches nothing, and the page script's messages forged on the window
// never reach the service worker.
import type { Page } from 'playwright-core'
import { beforeAll, beforeEach, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { CHANNEL_EVENT, CONFIG_STORAGE_KEY, CONTENT_SOURCE, PAGE_SOURCE } from '../../../extension/src/protocol/messages.ts'
import { ZERO_CODE_STORAGE_KEY } from '../../../extension/src/protocol/zero-code-mode.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { useStage } from '../support/stage.ts'
import { routeBlankPage } from '../wire/blank-page.ts'
import { forgedChannelGot, loopBody, offerForgedChannel, postToSelf, relayForgeries, seenOnWindow, sendChat, userTexts, watchWindow } from './forgeries.ts'
import { tapPanelPort } from './panel-tap.ts'

const MODEL = 'channel-model'
const stage = useStage({ routes: routeBlankPage })
const relay = { source: CONTENT_SOURCE, v: PROTOCOL_VERSION }
const lastBody = () => stage.mock.exchanges.filter((e) => e.model === MODEL).at(-1)!.body

beforeAll(() => stage.mock.script(MODEL, { steps: [], answer: 'ok' }))

/** Nothing stored: the config is the recommended one, every origin on its default (guard for this local server). */
beforeEach(async () => (await stage.browser.worker()).evaluate((keys) => chrome.storage.local.remove(keys), [CONFIG_STORAGE_KEY, ZERO_CODE_STORAGE_KEY]))

/** The page's first call of the page API: the page script speaks, and the relay starts. */
const speak = (page: Page, tool: string) =>
  page.evaluate(
    (tool) => (window as unknown as { __REPEAT_TOOL_GUARD__: { observe(e: object): unknown } }).__REPEAT_TOOL_GUARD__.observe({ agent: { name: 'channel' }, name: tool, arguments: {} }),
    tool,
  )

const thresholds = (page: Page) => page.evaluate(() => (window as unknown as { __REPEAT_TOOL_GUARD__: { config: { thresholds: number[] } } }).__REPEAT_TOOL_GUARD__.config.thresholds)

test("the relay's messages forged on the window change nothing: a guarded request still gets the reminder", async () => {
  const { page } = await stage.open('blank')
  await speak(page, 'first')
  await page.evaluate(postToSelf, relayForgeries(relay, RECOMMENDED_CONFIG))
  const body = loopBody(MODEL, 'You are a forging agent.')
  expect(await page.evaluate(sendChat, body)).toBe(200)
  expect(userTexts(lastBody())).toContain(GENTLE)
  expect(await thresholds(page)).toEqual([3, 5, 8])
  await page.close()
})

test('a page script listening on the window never sees the stored mode or config', async () => {
  const origin = `http://localhost:${new URL(stage.server.origin).port}`
  await (await stage.browser.worker()).evaluate(([configKey, modeKey, origin]) => chrome.storage.local.set({ [configKey]: { thresholds: [2, 6] }, [modeKey]: { [origin]: 'observe' } }), [
    CONFIG_STORAGE_KEY,
    ZERO_CODE_STORAGE_KEY,
    origin,
  ] as const)
  const page = await stage.browser.context.newPage()
  await page.goto(`${origin}/blank`)
  await page.evaluate(watchWindow)
  await speak(page, 'first')
  // Both settings reached the page script: the config is the stored one, and the request goes out as made.
  await expect.poll(() => thresholds(page)).toEqual([2, 6])
  const body = loopBody(MODEL, 'You are an observed agent.')
  await expect.poll(async () => (await page.evaluate(sendChat, body), lastBody()), { interval: 100 }).toBe(body)
  const seen = JSON.stringify(await page.evaluate(seenOnWindow))
  expect(seen).toBe('[]')
  await page.close()
})

test('a channel the page offers as the relay does reaches nothing: it hears nothing, and what it says changes nothing', async () => {
  const { page, tabId } = await stage.open('blank')
  const extensionPage = await stage.browser.openPanel(tabId)
  const tap = await tapPanelPort(extensionPage, tabId)
  await page.evaluate(offerForgedChannel, { event: CHANNEL_EVENT, messages: relayForgeries(relay, RECOMMENDED_CONFIG) })
  await speak(page, 'after_the_offer')
  // The page script's call went over the relay's channel: its events reach the panel's port.
  await expect.poll(async () => (await tap.events()).some((e) => e.type === 'call' && e.tool === 'after_the_offer')).toBe(true)
  const body = loopBody(MODEL, 'You are an offering agent.')
  expect(await page.evaluate(sendChat, body)).toBe(200)
  expect(userTexts(lastBody())).toContain(GENTLE)
  expect(await thresholds(page)).toEqual([3, 5, 8])
  expect(await page.evaluate(forgedChannelGot)).toEqual([])
  await extensionPage.close()
  await page.close()
})

test("the page script's messages forged on the window reach nothing in the service worker, not even its drop count", async () => {
  const { page, tabId } = await stage.open('blank')
  const extensionPage = await stage.browser.openPanel(tabId)
  const tap = await tapPanelPort(extensionPage, tabId)
  const call = { type: 'call', at: 1, agentId: 'hook:9', seq: 1, tool: 'forged_tool', args: '{}', argsLength: 2, tracked: true, denied: false, isError: false, count: 1, nextThreshold: 3 }
  await page.evaluate(postToSelf, [
    { source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'events', events: [call, { type: 'page-load', at: 1, url: 'https://bank.example/' }] },
    { source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'events', events: 'malformed' },
    { source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'drops', drops: { shape: 1000 } },
  ])
  await speak(page, 'real_tool')
  await expect.poll(async () => (await tap.events()).some((e) => e.type === 'call' && e.tool === 'real_tool')).toBe(true)
  const delivered = JSON.stringify(await tap.messages())
  for (const forged of ['forged_tool', 'bank.example']) expect(delivered).not.toContain(forged)
  expect(await tap.drops()).toBeUndefined()
  await extensionPage.close()
  await page.close()
})
