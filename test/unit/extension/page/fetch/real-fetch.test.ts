// The fetch interceptor with Node's real fetch and a local server.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { LLM_BODY } from '../support/looping-agent.ts'
import { page } from './fetch-page.ts'

describe("with Node's real fetch and a local server", () => {
  let origin = ''
  const received: { url?: string; method?: string; headers: IncomingMessage['headers']; body: Buffer }[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    received.push({ url: req.url, method: req.method, headers: req.headers, body: Buffer.concat(chunks) })
    if (req.url === '/hang') return // never answers: only an abort ends it
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('data: one\n\n')
    setTimeout(() => res.end('data: two\n\n'), 20)
  })
  beforeAll(async () => {
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => {
    server.closeAllConnections()
    return new Promise<void>((ok) => server.close(() => ok()))
  })

  test('the rewritten request goes out whole, and its response streams back untouched', async () => {
    const p = page(fetch)
    const response = await p.target.fetch(`${origin}/v1/chat/completions`, { method: 'POST', body: LLM_BODY, headers: { 'content-type': 'application/json', 'x-key': 'k' } })
    expect(await response.text()).toBe('data: one\n\ndata: two\n\n')
    const got = received.at(-1)!
    expect(got.headers['x-key']).toBe('k')
    expect(JSON.parse(got.body.toString()).messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(Number(got.headers['content-length'])).toBe(got.body.length)
  })

  test('an aborted LLM request still aborts', async () => {
    const p = page(fetch)
    const controller = new AbortController()
    const pending = p.target.fetch(`${origin}/hang`, { method: 'POST', body: LLM_BODY, signal: controller.signal })
    // Aborted only once the server holds this request: the abort cuts a request in flight.
    await expect.poll(() => received.some((r) => r.url === '/hang')).toBe(true)
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})
