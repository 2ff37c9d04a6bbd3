// WebMCP in Chromium launched with the WebMCP flags and the built extension: a page registers tools
// with `document.modelContext.registerTool`, an agent loop calls one through `executeTool` with the
// same arguments, and the reminders arrive in its results (gentle after the third call, detailed
// after the fifth) as one more text item, the tool's own result untouched; `this`, arguments and
// errors reach the page as without the extension; the panel shows the frame's WebMCP agent; an
// observed origin gets every result exactly as the tool made it.
import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import type { Browser } from '../support/browser.ts'
import { openReportingPage, reportedEvents } from '../support/page-events.ts'
import type { TestServer } from '../support/server.ts'
import { useStage } from '../support/stage.ts'
import { routeToolsPage, type LoopResult, type Seen } from './tools-page.ts'

const WEBMCP = ['--enable-features=WebMCP', '--enable-experimental-web-platform-features']
// Any *.test host name is this machine: an origin that is not local, so observed by default.
const OTHER_HOST = '--host-resolver-rules=MAP *.test 127.0.0.1'

const stage = useStage({
  routes: routeToolsPage,
  // WebMCP needs a secure context: the observed origin is declared one.
  launch: (server) => ({ args: [...WEBMCP, OTHER_HOST, `--unsafely-treat-insecure-origin-as-secure=${observedOrigin(server)}`] }),
  plain: { args: WEBMCP },
})

const OWN_ITEM = { type: 'text', text: 'notes: the loader ignores threshold' }
const OWN_FIELDS = { structuredContent: { lines: 1 } }
const ARGS = { path: 'notes.txt' }
const DETAILED = detailed('read_file', 5, '{"path":"notes.txt"}')

/** Opens the tools page and records the panel events the page sends towards the panel. */
const openTools = (from: Browser, origin = stage.server.origin) => openReportingPage(from, `${origin}/tools`)

const observedOrigin = (server: TestServer) => `http://agent.test:${new URL(server.origin).port}`

const loop = (page: Page, name: string, times: number) =>
  page.evaluate(([n, a, t]) => (window as unknown as { loop: (n: string, a: unknown, t: number) => Promise<LoopResult[]> }).loop(n, a, t), [name, ARGS, times] as const)
const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: Seen }).seen)
const parsed = (results: LoopResult[]) => results.map((r) => JSON.parse(r.ok!) as Record<string, unknown>)

test("the reminders arrive in the results: gentle after the third call, detailed after the fifth, the tool's own result untouched", async () => {
  const page = await openTools(stage.browser)
  const results = await loop(page, 'read_file', 6)
  const own = { content: [OWN_ITEM], ...OWN_FIELDS }
  expect(parsed(results)).toEqual([
    own,
    own,
    { content: [OWN_ITEM, { type: 'text', text: GENTLE }], ...OWN_FIELDS },
    own,
    { content: [OWN_ITEM, { type: 'text', text: DETAILED }], ...OWN_FIELDS },
    own,
  ])
  // Byte for byte: a result without a reminder is the browser's own JSON text of the tool's result.
  expect(results[0]!.ok).toBe(JSON.stringify(own))
  expect(results[2]!.ok).toBe(`{"content":[${JSON.stringify(OWN_ITEM)},${JSON.stringify({ type: 'text', text: GENTLE })}],"structuredContent":{"lines":1}}`)

  // The tool ran six times, called with the browser's `this` and the loop's arguments.
  expect((await seen(page)).calls).toEqual(Array.from({ length: 6 }, () => ({ thisIsWindow: true, args: ARGS })))

  await expect.poll(async () => (await reportedEvents(page)).filter((e) => e.type === 'call').length).toBe(6)
  const events = await reportedEvents(page)
  expect(events.filter((e) => e.type === 'agent')).toEqual([{ type: 'agent', at: expect.any(Number), agent: { id: 'webmcp:1', kind: 'webmcp', label: 'WebMCP tools', reach: 'webmcp' } }])
  expect(events.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.agentId, e.seq, e.tool, e.args, e.count, e.isError])).toEqual(
    [1, 2, 3, 4, 5, 6].map((n) => ['webmcp:1', n, 'read_file', '{"path":"notes.txt"}', n, false]),
  )
  const reminders = events.filter((e) => e.type === 'reminder')
  expect(reminders.map((e) => e.type === 'reminder' && [e.seq, e.level, e.text, e.placement, e.withheld])).toEqual([
    [3, 'gentle', GENTLE, 'content[1]', undefined],
    [5, 'detailed', DETAILED, 'content[1]', undefined],
  ])
  await page.close()
})

test('a tool that throws: the loop gets the same rejection as without the extension, the call is an error call', async () => {
  const page = await openTools(stage.browser)
  const without = await openTools(stage.plain)
  // Where the browser reports the error a tool threw: the console, or (Chromium 150 on) an uncaught page error.
  const messages = (p: Page) => {
    const list: string[] = []
    p.on('console', (m) => list.push(m.text()))
    p.on('pageerror', (error) => list.push(error.message))
    return list
  }
  const logged = messages(page)
  const loggedWithout = messages(without)
  const [results, resultsWithout] = await Promise.all([loop(page, 'flaky', 3), loop(without, 'flaky', 3)])
  expect(results).toEqual(resultsWithout)
  expect(results[0]!.error).toMatch(/^UnknownError: /)
  // The browser reports the error the tool threw: the same one reached it.
  await expect.poll(() => logged.filter((m) => m.includes('disk on fire')).length).toBe(3)
  expect(logged.filter((m) => m.includes('disk on fire'))).toEqual(loggedWithout.filter((m) => m.includes('disk on fire')))

  await expect.poll(async () => (await reportedEvents(page)).filter((e) => e.type === 'call').length).toBe(3)
  const events = await reportedEvents(page)
  expect(events.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.tool, e.isError, e.count])).toEqual([
    ['flaky', true, 1],
    ['flaky', true, 2],
    ['flaky', true, 3],
  ])
  // The gentle reminder was due, but an error has no content to carry it: shown, not sent.
  expect(events.filter((e) => e.type === 'reminder').map((e) => e.type === 'reminder' && [e.level, e.placement, e.withheld])).toEqual([['gentle', 'content', 'no-content']])
  await Promise.all([page.close(), without.close()])
})

test("the panel shows the frame's WebMCP agent with its kind and reach, and again after the service worker was stopped", async () => {
  const page = await openTools(stage.browser)
  const tabId = await stage.browser.tabId(page)
  await loop(page, 'read_file', 5)

  async function expectAgent(): Promise<void> {
    const panel = await stage.browser.openPanel(tabId)
    const row = panel.getByTestId('agent-row').filter({ hasText: 'WebMCP tools' })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.getByTestId('agent-kind').textContent()).toBe('webmcp')
    expect(await row.getByTestId('agent-reach').textContent()).toBe('webmcp')
    await expect.poll(() => row.getByTestId('agent-count').textContent()).toBe('5')
    expect(await row.getByTestId('agent-chain').textContent()).toBe('read_file {"path":"notes.txt"}')
    await panel.close()
  }
  await expectAgent()
  await stage.browser.stopServiceWorker()
  await expectAgent()
  await page.close()
})

test('an origin that is observed gets every result exactly as the tool made it; the panel learns where the reminders would go', async () => {
  const page = await openTools(stage.browser, observedOrigin(stage.server))
  const results = await loop(page, 'read_file', 5)
  const own = JSON.stringify({ content: [OWN_ITEM], ...OWN_FIELDS })
  expect(results.map((r) => r.ok)).toEqual(Array.from({ length: 5 }, () => own))
  await expect.poll(async () => (await reportedEvents(page)).filter((e) => e.type === 'reminder').length).toBe(2)
  const reminders = (await reportedEvents(page)).filter((e) => e.type === 'reminder')
  expect(reminders.map((e) => e.type === 'reminder' && [e.level, e.text, e.placement, e.withheld])).toEqual([
    ['gentle', GENTLE, 'content[1]', 'observe'],
    ['detailed', DETAILED, 'content[1]', 'observe'],
  ])
  await page.close()
})

test('the hooked methods print as the natives, on the prototype the browser defines them on', async () => {
  const page = await openTools(stage.browser)
  const without = await openTools(stage.plain)
  const look = (p: Page) =>
    p.evaluate(() => {
      const context = (document as unknown as { modelContext: object }).modelContext
      const prototype = Object.getPrototypeOf(context) as Record<string, (...args: unknown[]) => unknown>
      return ['registerTool', 'executeTool', 'getTools'].map((key) => {
        const method = prototype[key]!
        const { writable, enumerable, configurable } = Object.getOwnPropertyDescriptor(prototype, key)!
        return [key, String(method), Function.prototype.toString.call(method), method.name, method.length, Object.hasOwn(context, key), writable, enumerable, configurable]
      })
    })
  expect(await look(page)).toEqual(await look(without))
  await Promise.all([page.close(), without.close()])
})
