// What zero-code mode must never change, in Chromium with the built extension: requests that are
// not LLM requests, bodies it cannot read, aborts; and that a Request object and a 2 MB
// conversation are handled.
import type { IncomingHttpHeaders } from 'node:http'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openaiChatBody, repeat } from '../../fixtures/wire/conversations.ts'
import { occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { useStage } from '../support/stage.ts'
import { routeBlankPage } from './blank-page.ts'
import { serveUploads, type UploadServer } from './h2-upload-server.ts'

let page: Page
const received: { path: string; method: string; headers: IncomingHttpHeaders; body: Buffer }[] = []
const hangsClosed: string[] = []

const stage = useStage({
  routes: (server) => {
    routeBlankPage(server)
    server.route((req, res, body) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname
      if (path.startsWith('/hang')) {
        // Never answers: only the client's abort ends it.
        received.push({ path, method: req.method!, headers: req.headers, body })
        res.on('close', () => hangsClosed.push(path))
        return true
      }
      if (!path.startsWith('/echo')) return false
      received.push({ path, method: req.method!, headers: req.headers, body })
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes: body.length }))
      return true
    })
  },
})

beforeAll(async () => {
  page = await stage.browser.context.newPage()
  await page.goto(`${stage.server.origin}/blank`)
})

const lastReceived = (path: string) => received.filter((r) => r.path === path).at(-1)!

test("the page's fetch still looks native", async () => {
  const looks = await page.evaluate(() => ({
    text: Function.prototype.toString.call(fetch),
    viaMethod: fetch.toString(),
    name: fetch.name,
    length: fetch.length,
    descriptor: Object.getOwnPropertyDescriptor(window, 'fetch'),
    toStringText: Function.prototype.toString.call(Function.prototype.toString),
  }))
  expect(looks).toEqual({
    text: 'function fetch() { [native code] }',
    viaMethod: 'function fetch() { [native code] }',
    name: 'fetch',
    length: 1,
    descriptor: { writable: true, enumerable: true, configurable: true },
    toStringText: 'function toString() { [native code] }',
  })
  // ...while it is the interceptor: the same fetch inserts the reminder into an LLM request.
  const body = JSON.stringify(openaiChatBody({ system: 'Looks native.', turns: [{ prompt: 'go' }, ...repeat({ name: 'read_file', args: { path: 'a' } }, 3)] }))
  await page.evaluate((text) => fetch('/echo/looks-native', { method: 'POST', body: text, headers: { 'content-type': 'application/json' } }), body)
  expect(occurrences(lastReceived('/echo/looks-native').body.toString('utf8'), GENTLE)).toBe(1)
})

describe('requests that are not LLM requests go out byte-for-byte', () => {
  test('a JSON POST (even one that mentions tool_calls), with its method, headers and credentials', async () => {
    const sent = await page.evaluate(async () => {
      const body = '{ "event": "tool_calls", "tool_calls": 3, "big": 123456789012345678901234567890, "é": "\\u00e9" }\n'
      const response = await fetch('/echo/json', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-trace': 'abc' },
        credentials: 'include',
      })
      return { body, answer: await response.json() }
    })
    const got = lastReceived('/echo/json')
    expect(got.method).toBe('POST')
    expect(got.body.toString('utf8')).toBe(sent.body)
    expect(got.headers['x-trace']).toBe('abc')
    expect(got.headers['content-type']).toBe('application/json')
    expect(sent.answer).toEqual({ bytes: Buffer.byteLength(sent.body) })
  })

  test('a FormData upload, even one carrying an LLM body as a field', async () => {
    const body = JSON.stringify(openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat({ name: 'read_file', args: { path: 'a' } }, 3)] }))
    const file = await page.evaluate(async (llmBody) => {
      const bytes = crypto.getRandomValues(new Uint8Array(4096))
      const form = new FormData()
      form.append('conversation', llmBody)
      form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'data.bin')
      await fetch('/echo/form', { method: 'POST', body: form })
      return Array.from(bytes)
    }, body)
    const got = lastReceived('/echo/form')
    const boundary = /boundary=(.+)$/.exec(String(got.headers['content-type']))![1]!
    const raw = got.body.toString('latin1')
    expect(raw.startsWith(`--${boundary}\r\n`)).toBe(true)
    expect(raw.endsWith(`--${boundary}--\r\n`)).toBe(true)
    expect(raw).toContain(`name="conversation"\r\n\r\n${body}\r\n--${boundary}`)
    const fileStart = raw.indexOf('\r\n\r\n', raw.indexOf('filename="data.bin"')) + 4
    expect([...got.body.subarray(fileStart, fileStart + file.length)]).toEqual(file)
    expect(occurrences(raw, GENTLE)).toBe(0)
  })

  test('a GET with headers', async () => {
    await page.evaluate(() => fetch('/echo/get?q=1', { headers: { 'x-a': '1' } }))
    const got = lastReceived('/echo/get')
    expect([got.method, got.headers['x-a'], got.body.length]).toEqual(['GET', '1', 0])
  })
})

describe('a streamed request body (HTTP/2)', () => {
  let uploads: UploadServer
  let securePage: Page
  beforeAll(async () => {
    uploads = await serveUploads()
    securePage = await stage.browser.context.newPage()
    const cdp = await stage.browser.context.newCDPSession(securePage)
    await cdp.send('Security.setIgnoreCertificateErrors', { ignore: true })
    await securePage.goto(`${uploads.origin}/`)
  })
  afterAll(async () => {
    await securePage?.close()
    await uploads?.close()
  })

  test('goes out untouched and unbuffered, even when it is an LLM body with a due reminder', async () => {
    const body = JSON.stringify(openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat({ name: 'read_file', args: { path: 'a' } }, 3)] }))
    const answer = await securePage.evaluate(async (text) => {
      const bytes = new TextEncoder().encode(text)
      const third = Math.ceil(bytes.length / 3)
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += third) controller.enqueue(bytes.subarray(i, i + third))
          controller.close()
        },
      })
      const init = { method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': 'application/json' } } as RequestInit
      return (await fetch('/upload', init)).json()
    }, body)
    expect(answer).toEqual({ ok: true })
    const got = uploads.uploads.at(-1)!
    expect(got.httpVersion).toBe('2.0')
    expect(got.body.toString('utf8')).toBe(body)
  })
})

describe('aborts', () => {
  test('an aborted LLM request (one that gets a reminder) still aborts, and so does any other', async () => {
    const body = JSON.stringify(openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat({ name: 'read_file', args: { path: 'a' } }, 3)] }))
    await page.evaluate((text) => {
      const w = window as unknown as { pending: Record<string, Promise<string>>; controllers: Record<string, AbortController> }
      w.pending = {}
      w.controllers = {}
      for (const [name, init] of [
        ['llm', { method: 'POST', body: text, headers: { 'content-type': 'application/json' } }],
        ['plain', {}],
      ] as const) {
        const controller = new AbortController()
        w.controllers[name] = controller
        w.pending[name] = fetch(`/hang/${name}`, { ...init, signal: controller.signal }).then(
          () => 'resolved',
          (error: Error) => error.name,
        )
      }
    }, body)
    await expect.poll(() => received.filter((r) => r.path.startsWith('/hang')).length).toBe(2)
    expect(occurrences(lastReceived('/hang/llm').body.toString(), GENTLE)).toBe(1)
    const outcome = await page.evaluate(async () => {
      const w = window as unknown as { pending: Record<string, Promise<string>>; controllers: Record<string, AbortController> }
      for (const controller of Object.values(w.controllers)) controller.abort()
      return { llm: await w.pending.llm, plain: await w.pending.plain }
    })
    expect(outcome).toEqual({ llm: 'AbortError', plain: 'AbortError' })
    await expect.poll(() => [...hangsClosed].sort()).toEqual(['/hang/llm', '/hang/plain'])
  })
})

describe('LLM requests the SDKs make in other shapes', () => {
  test('a Request object is read from a clone and sent with the reminder; its headers stay', async () => {
    stage.mock.script('request-object', { steps: [], answer: 'ok' })
    const body = JSON.stringify({ ...openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat({ name: 'read_file', args: { path: 'a' } }, 3)] }), model: 'request-object', stream: false })
    const status = await page.evaluate(async (text) => {
      const request = new Request('/v1/chat/completions', { method: 'POST', body: text, headers: { 'content-type': 'application/json', 'x-sdk': 'genai' } })
      return (await fetch(request)).status
    }, body)
    expect(status).toBe(200)
    const got = stage.mock.exchanges.filter((e) => e.model === 'request-object').at(-1)!
    expect(got.headers['x-sdk']).toBe('genai')
    expect(reminderTextOf(valueAt(JSON.parse(got.body), 'messages[7]'))).toBe(GENTLE)
  })

  test('a 2 MB conversation gets its reminders at their places, and the model accepts it', async () => {
    stage.mock.script('two-mb', { steps: [], answer: 'ok' })
    const output = 'x'.repeat(335_000)
    const body = JSON.stringify({ ...openaiChatBody({ turns: [{ prompt: 'go' }, ...repeat({ name: 'read_file', args: { path: 'big.log' }, result: output }, 6)] }), model: 'two-mb', stream: false })
    expect(body.length).toBeGreaterThan(2_000_000)
    const outcome = await page.evaluate(async (text) => {
      const start = performance.now()
      const pending = fetch('/v1/chat/completions', { method: 'POST', body: text, headers: { 'content-type': 'application/json' } })
      const blockedMs = performance.now() - start
      return { status: (await pending).status, blockedMs }
    }, body)
    expect(outcome.status).toBe(200)
    const got = JSON.parse(stage.mock.exchanges.filter((e) => e.model === 'two-mb').at(-1)!.body)
    expect(reminderTextOf(valueAt(got, 'messages[7]'))).toBe(GENTLE)
    expect(reminderTextOf(valueAt(got, 'messages[12]'))).toBe(detailed('read_file', 5, '{"path":"big.log"}'))
    expect(got.messages.filter((m: { role: string }) => m.role === 'tool').every((m: { content: string }) => m.content === output)).toBe(true)
    console.info(`2 MB conversation: fetch() returned after ${outcome.blockedMs.toFixed(1)} ms in the page`)
  })
})
