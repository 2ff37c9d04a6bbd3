// Real-model mode against a local OpenAI-compatible server: the requests leave the page with
// the key, cross-origin (CORS), and the reminder reaches the server as a plain user message.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { engineReminder, readTranscript, reminderMarks, usePlayground, waitForRun } from './playground-page.ts'

const KEY = 'sk-local-test-0123'

interface Seen {
  readonly headers: IncomingHttpHeaders
  readonly body: { model: string; messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] }
}

/** A model that lists src/ until a user message follows a tool result, then answers. */
function reply(body: Seen['body'], n: number) {
  const { messages } = body
  const reminded = messages.some((m, i) => m.role === 'user' && messages[i - 1]?.role === 'tool')
  const message = reminded
    ? { role: 'assistant', content: 'I was repeating myself; src/ holds format.ts, index.ts, parse.ts and report.ts.' }
    : { role: 'assistant', content: null, tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: 'list_dir', arguments: '{"path":"src"}' } }] }
  return { id: `cmpl-${n}`, object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: reminded ? 'stop' : 'tool_calls' }] }
}

function startModelServer(seen: Seen[]): Promise<{ server: Server; origin: string }> {
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'POST, OPTIONS' }
  const server = createServer(async (req, res) => {
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end()
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return void res.writeHead(404, cors).end()
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      res.writeHead(401, { ...cors, 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }))
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Seen['body']
    seen.push({ headers: req.headers, body })
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(reply(body, seen.length)))
  })
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })))
}

const session = usePlayground({ extension: false })
let model: { server: Server; origin: string }
const seen: Seen[] = []

beforeAll(async () => {
  model = await startModelServer(seen)
})
afterAll(async () => {
  await new Promise((ok) => model?.server.close(ok))
})

async function useEndpoint(key: string): Promise<void> {
  await session.page.getByTestId('mode-endpoint').check()
  await session.page.getByTestId('base-url').fill(`${model.origin}/v1`)
  await session.page.getByTestId('model').fill('local-model')
  await session.page.getByTestId('api-key').fill(key)
}

describe('real-model mode', () => {
  test('a wrong key shows the server error', async () => {
    await session.page.goto(`${session.server.origin}/?scenario=replay-5`)
    await useEndpoint('sk-wrong')
    await session.page.getByTestId('run').click()
    expect(await waitForRun(session.page)).toBe('failed')
    expect(await session.page.locator('[data-testid="transcript"] .error').textContent()).toContain('401: Incorrect API key provided.')
  })

  test('runs the agent against the endpoint; the reminder reaches it as a user message after the results', async () => {
    seen.length = 0
    await session.page.goto(`${session.server.origin}/?scenario=replay-5`)
    await useEndpoint(KEY)
    await session.page.getByTestId('run').click()
    expect(await waitForRun(session.page)).toBe('answered')

    expect(seen).toHaveLength(4)
    expect(seen.every((s) => s.headers.authorization === `Bearer ${KEY}` && s.body.model === 'local-model')).toBe(true)
    expect(seen[0]!.body.tools?.map((t) => t.function.name)).toEqual(expect.arrayContaining(['read_file', 'list_dir', 'grep', 'write_file', 'todo_write', 'run_tests', 'delete_path']))
    const last = seen[3]!.body.messages
    expect(last.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'user'])
    expect(last[8]).toEqual({ role: 'user', content: engineReminder('list_dir', { path: 'src' }, 3) })

    const rows = (await readTranscript(session.page))[0]!.rows
    expect(reminderMarks(rows)).toEqual(['3:gentle'])
    expect(rows.find((r) => r.kind === 'reminder')!.via).toBe('playground')
    expect(await session.page.locator('[data-testid="transcript"] .note').textContent()).toContain('does not report what it received')
  })

  test('the key stays in the session unless remembered', async () => {
    const stored = () =>
      session.page.evaluate(() => ({
        local: Object.values(localStorage).includes('sk-local-test-0123'),
        session: Object.values(sessionStorage).includes('sk-local-test-0123'),
      }))
    await session.page.goto(`${session.server.origin}/`)
    await useEndpoint(KEY)
    await expect.poll(stored).toEqual({ local: false, session: true })
    await session.page.reload()
    await session.page.getByTestId('mode-endpoint').check()
    expect(await session.page.getByTestId('api-key').inputValue()).toBe(KEY)
    expect(await session.page.getByTestId('base-url').inputValue()).toBe(`${model.origin}/v1`)

    await session.page.getByTestId('remember-key').check()
    await expect.poll(stored).toEqual({ local: true, session: false })
    await session.page.getByTestId('remember-key').uncheck()
    await expect.poll(stored).toEqual({ local: false, session: true })
  })
})
