// Zero-code mode over XMLHttpRequest, in Chromium with the built extension: agents written with the
// real axios loop on one call against the mock model, and the reminders must land at their exact
// places, once, with the earlier part of every request unchanged. The page's other XHR traffic
// (response types, events, synchronous requests, credentials, MIME overrides, headers, aborts, the
// native methods' errors) is run by the same page script with and without the extension, and must
// come out the same; bodies that are not LLM requests reach the server byte for byte.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openaiChatBody, repeat, type Script } from '../../fixtures/wire/conversations.ts'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import type { Browser } from '../support/browser.ts'
import type { Exchange } from '../support/mock-llm.ts'
import { openReportingPage, reportedEvents } from '../support/page-events.ts'
import { serve, type TestServer } from '../support/server.ts'
import { useStage } from '../support/stage.ts'
import { expectAppendOnly, expectRemindersOnceInPlace } from './expect-sticky.ts'
import { buildAgentPages } from './pages/build.ts'
import type { AgentOptions, AgentRun } from './pages/read-file-tool.ts'
import type { BodyKind, Outcome, XhrAgentName } from './pages/xhr-agents.ts'

/** What the server got on the /xhr/ routes, byte for byte; `closedEarly`: the client hung up before an answer. */
const received: { url: string; headers: IncomingMessage['headers']; body: Buffer; closedEarly?: boolean }[] = []

function xhrRoutes(req: IncomingMessage, res: ServerResponse, body: Buffer): boolean {
  const url = req.url ?? '/'
  if (!url.startsWith('/xhr/')) return false
  const record: (typeof received)[number] = { url, headers: req.headers, body }
  received.push(record)
  const path = url.split('?')[0]
  if (path === '/xhr/hang') {
    // Never answers: only an abort ends it.
    res.on('close', () => (record.closedEarly = !res.writableEnded))
  } else if (path === '/xhr/json') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":[1,2,{"b":"c"}],"s":"\u00e9\u2713"}')
  } else if (path === '/xhr/bytes') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(Array.from({ length: 256 }, (_, i) => i)))
  } else if (path === '/xhr/xml') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('<root><a/></root>')
  } else if (path === '/xhr/slow') {
    const chunk = 'x'.repeat(16_384)
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(chunk.length * 12) })
    let sent = 0
    const next = () => (++sent === 12 ? res.end(chunk) : (res.write(chunk), setTimeout(next, 15)))
    next()
  } else if (path === '/xhr/cors') {
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': req.headers.origin ?? '*', 'access-control-allow-credentials': 'true' })
    res.end(`cookie: ${req.headers.cookie ?? 'none'}`)
  } else {
    const { 'content-type': contentType, 'x-custom': custom, accept } = req.headers
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, contentType, custom, accept, body: body.toString('utf8') }))
  }
  return true
}

const stage = useStage({ pages: () => buildAgentPages('xhr-agents'), routes: (server) => server.route(xhrRoutes), plain: true })
/** Another origin, for the page's cross-origin requests. */
let other: TestServer

beforeAll(async () => {
  other = await serve([])
  other.route(xhrRoutes)
})

afterAll(() => other?.close())

/** The page, with a way to read what it reported towards the panel. */
async function openPage(browser: Browser): Promise<Page> {
  const page = await openReportingPage(browser, `${stage.server.origin}/xhr-agents.html`, 'agents')
  await page.evaluate((otherOrigin) => {
    Object.assign(window, { otherOrigin })
    // biome-ignore lint/suspicious/noDocumentCookie: the page's own cookie, set as a page sets it
    document.cookie = 'session=s1; path=/'
  }, other.origin)
  return page
}

const READ = { name: 'read_file', args: { path: 'notes.txt' } }
const DETAILED = detailed('read_file', 5, '{"path":"notes.txt"}')

interface Session {
  readonly page: Page
  readonly run: AgentRun & { progress?: number }
  readonly exchanges: Exchange[]
}

async function runAgent(agent: XhrAgentName): Promise<Session> {
  const model = `xhr-${agent}-${Math.random().toString(36).slice(2)}`
  stage.mock.script(model, { steps: Array.from({ length: 6 }, () => [READ]), answer: 'The loader ignores "threshold".' })
  const page = await openPage(stage.browser)
  const options: AgentOptions = { model, system: 'You are a careful coding agent.', prompt: 'Why is the threshold ignored?' }
  const run = await page.evaluate(([name, o]) => (window as unknown as { agents: Record<string, (o: AgentOptions) => Promise<AgentRun>> }).agents[name]!(o), [agent, options] as const)
  return { page, run, exchanges: stage.mock.exchanges.filter((e) => e.model === model) }
}

const PLACES: Readonly<Record<XhrAgentName, { gentle: string; detailed: string; format: string }>> = {
  openaiChat: { gentle: 'messages[8]', detailed: 'messages[13]', format: 'openai-chat' },
  anthropic: { gentle: 'messages[6].content[1]', detailed: 'messages[10].content[1]', format: 'anthropic' },
  gemini: { gentle: 'contents[7]', detailed: 'contents[12]', format: 'gemini' },
}

describe.each(Object.keys(PLACES) as XhrAgentName[])('axios, %s, looping six times on one call', (agent) => {
  let session: Session
  const places = PLACES[agent]
  beforeAll(async () => {
    session = await runAgent(agent)
  })
  afterAll(() => session?.page.close())

  test('the agent finishes; the model accepted every request (no format rule broken)', () => {
    expect(session.run.answer).toBe('The loader ignores "threshold".')
    expect(session.exchanges.map((e) => [e.status, e.error])).toEqual(Array.from({ length: 7 }, () => [200, undefined]))
    if (agent === 'anthropic') expect(session.run.progress).toBeGreaterThan(0)
  })

  test('the gentle reminder follows the third result and the detailed one the fifth, in every later request, once', () => {
    expectRemindersOnceInPlace(session.exchanges, places, { gentle: GENTLE, detailed: DETAILED })
  })

  test("append-only: each request starts with the whole history the previous one sent; the headers are axios's own", () => {
    expectAppendOnly(session.exchanges)
    for (const { headers, body } of session.exchanges) {
      expect(headers['content-type']).toBe('application/json')
      expect(headers.accept).toBe('application/json, text/plain, */*')
      expect(Number(headers['content-length'])).toBe(Buffer.byteLength(body))
    }
  })

  test('no tool result was altered', () => {
    const last = session.exchanges.at(-1)!.body
    expect(session.run.results).toHaveLength(6)
    expect(occurrences(last, session.run.results[0]!)).toBe(6)
  })

  test('the panel learns of one wire agent reached by xhr, its six calls and where each reminder went', async () => {
    await expect.poll(async () => (await reportedEvents(session.page)).filter((e) => e.type === 'request').length).toBe(6)
    const events = await reportedEvents(session.page)
    expect(events.filter((e) => e.type === 'agent')).toEqual([
      { type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: 'You are a careful coding agent.', format: places.format, reach: 'xhr' } },
    ])
    expect(events.filter((e) => e.type === 'call').map((e) => e.type === 'call' && [e.seq, e.tool, e.args, e.count])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [n, 'read_file', '{"path":"notes.txt"}', n]),
    )
    expect(events.filter((e) => e.type === 'reminder').map((e) => e.type === 'reminder' && [e.seq, e.level, e.placement, e.text])).toEqual([
      [3, 'gentle', places.gentle, GENTLE],
      [5, 'detailed', places.detailed, DETAILED],
    ])
    expect(events.filter((e) => e.type === 'request').every((e) => e.type === 'request' && e.url.startsWith(`${stage.server.origin}/v1`))).toBe(true)
    expect(events.filter((e) => e.type === 'fault')).toEqual([])
    if (agent !== 'openaiChat') return
    const panel = await stage.browser.openPanel(await stage.browser.tabId(session.page))
    const row = panel.getByTestId('agent-row').filter({ hasText: 'You are a careful coding agent.' })
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1)
    expect(await row.getByTestId('agent-kind').textContent()).toBe('wire')
    expect(await row.getByTestId('agent-reach').textContent()).toBe('xhr')
    await expect.poll(() => row.getByTestId('agent-count').textContent()).toBe('6')
    await panel.close()
  })
})

test('a synchronous XHR carrying an LLM request is guarded the same way', async () => {
  const model = `xhr-sync-${Math.random().toString(36).slice(2)}`
  stage.mock.script(model, { steps: [[READ]] })
  const script: Script = { system: 'You are a synchronous agent.', turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }
  const body = JSON.stringify({ ...openaiChatBody(script), model, stream: false })
  const page = await openPage(stage.browser)
  const outcome = await page.evaluate((text) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/v1/chat/completions', false)
    xhr.setRequestHeader('Content-Type', 'application/json')
    xhr.send(text)
    return [xhr.status, xhr.readyState, JSON.parse(xhr.responseText).object]
  }, body)
  expect(outcome).toEqual([200, 4, 'chat.completion'])
  const [exchange] = stage.mock.exchanges.filter((e) => e.model === model)
  const sent = JSON.parse(exchange!.body)
  expect(sent.messages.slice(0, 8)).toEqual(JSON.parse(body).messages)
  expect(sent.messages[8]).toEqual({ role: 'user', content: GENTLE })
  expect(occurrences(exchange!.body, GENTLE)).toBe(1)
  await page.close()
})

describe("the page's other XHR traffic behaves as without the extension", () => {
  let pair: [Page, Page]
  beforeAll(async () => {
    pair = await Promise.all([openPage(stage.browser), openPage(stage.plain)])
  })
  afterAll(async () => {
    for (const page of pair ?? []) await page.close()
  })

  const BEHAVIOURS = [
    'responseType json',
    'responseType arraybuffer',
    'responseType text',
    'responseType blob',
    'progress and load events of a long response',
    'upload events of a JSON POST',
    'request headers as set',
    'overrideMimeType',
    'synchronous XHR',
    'withCredentials, to another origin',
    'a network error',
    'errors of the native methods',
  ]

  const run = (page: Page, name: string) => page.evaluate((n) => (window as unknown as { behaviours: Record<string, () => Promise<Outcome>> }).behaviours[n]!(), name)

  test.each(BEHAVIOURS)('%s', async (name) => {
    const [withExtension, without] = await Promise.all(pair.map((page) => run(page, name)))
    expect(withExtension).toEqual(without)
    // The cases do what they are named for (a comparison of two broken runs would pass too).
    if (name === 'responseType json') expect(withExtension.response).toEqual({ a: [1, 2, { b: 'c' }], s: 'é✓' })
    if (name === 'responseType arraybuffer') expect(withExtension.response).toEqual(Array.from({ length: 256 }, (_, i) => i))
    if (name === 'progress and load events of a long response') expect(withExtension.extra).toEqual([true, 16_384 * 12, 16_384 * 12])
    if (name === 'upload events of a JSON POST') expect(withExtension.events).toContain('upload load')
    if (name === 'request headers as set')
      expect(withExtension.response).toMatchObject({ custom: 'a, b', contentType: 'application/vnd.api+json', accept: 'application/x-ndjson', body: '{"hello":"world"}' })
    if (name === 'overrideMimeType') expect(withExtension.response).toEqual([true, 'root'])
    if (name === 'synchronous XHR')
      expect(withExtension).toMatchObject({ status: 200, readyState: 4, response: { body: '{"sync":true}' }, events: ['readyState 1', 'readyState 4', 'load', 'loadend'] })
    if (name === 'withCredentials, to another origin') expect(withExtension.response).toEqual([true, 'cookie: session=s1', false, 'cookie: none'])
    if (name === 'a network error') expect(withExtension).toMatchObject({ status: 0, events: expect.arrayContaining(['error', 'loadend']) })
    if (name === 'errors of the native methods') {
      expect((withExtension.response as string[]).every((text) => text !== 'nothing thrown')).toBe(true)
      expect(withExtension.response).toContain("DOMException InvalidStateError: Failed to execute 'send' on 'XMLHttpRequest': The object's state must be OPENED.")
    }
  })

  test('bodies that are not LLM requests reach the server byte for byte', async () => {
    const llm = JSON.stringify({ ...openaiChatBody({ system: 'a', turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }), model: 'm' })
    const cases: [BodyKind, string][] = [
      ['json', '{"event":"click","at":1}'],
      ['json', '{"model":"m","messages":[{"role":"user","content":"h\u00e9llo \u2713"}]}'],
      ['text', 'plain text, not JSON \u2713'],
      ['blob', llm],
      ['bytes', llm],
      ['params', llm],
    ]
    const [page] = pair
    for (const [n, [kind, text]] of cases.entries()) {
      expect(
        await page.evaluate(([k, t, tag]) => (window as unknown as { sendBody: (k: string, t: string, tag: string) => Promise<number> }).sendBody(k, t, tag), [kind, text, `bytes-${n}`] as const),
      ).toBe(200)
      const got = received.find((r) => r.url === `/xhr/echo?bytes-${n}`)!
      const expected = kind === 'params' ? Buffer.from(new URLSearchParams({ text }).toString()) : Buffer.from(text, 'utf8')
      expect(got.body.equals(expected), `${kind} body ${n}`).toBe(true)
    }
  })

  test.each([
    ['a request that is not an LLM request', '{"event":"upload"}', 'plain'],
    ['an LLM request (guarded, then aborted)', JSON.stringify({ ...openaiChatBody({ system: 'a', turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }), model: 'm' }), 'llm'],
  ])('an aborted XHR aborts: %s', async (_, body, tag) => {
    const outcomes: Outcome[] = []
    for (const [i, page] of pair.entries()) {
      const path = `/xhr/hang?${tag}-${i}`
      await page.evaluate(([p, b]) => (window as unknown as { startHanging: (p: string, b: string) => void }).startHanging(p, b), [path, body] as const)
      await expect.poll(() => received.some((r) => r.url === path)).toBe(true)
      outcomes.push(await page.evaluate(() => (window as unknown as { abortHanging: () => Promise<Outcome> }).abortHanging()))
      const got = received.find((r) => r.url === path)!
      await expect.poll(() => got.closedEarly).toBe(true)
      if (i === 0 && tag === 'llm') expect(occurrences(got.body.toString('utf8'), GENTLE)).toBe(1)
      else expect(got.body.toString('utf8')).toBe(body)
    }
    expect(outcomes[0]).toEqual(outcomes[1])
    expect(outcomes[0]).toMatchObject({ status: 0, readyState: 0, response: '' })
    expect(outcomes[0]!.events).toContain('abort')
    expect(outcomes[0]!.events).not.toContain('load')
    expect(outcomes[0]!.events.at(-1)).toBe('loadend')
  })
})
