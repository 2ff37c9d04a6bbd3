// OpenAI Responses continued by id through the registered process's fetch (docs/node.md, "How it
// works"): the responses the app reads are remembered as it reads them, a request continuing one
// is guarded over its chain, and one sent before the response it continues was read to its end
// waits for that reading.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { DEFAULT_CONFIG } from '../../../engine/index.ts'
import { createGuardEvents } from '../../../node/guard-events.ts'
import { createGuardedFetch } from '../../../node/guarded-fetch.ts'
import { createWireAnalysis } from '../../../node/wire-analysis.ts'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'

/** A Responses API model that calls grep every time; a streamed response waits for `release` before it completes. */
interface Model {
  readonly origin: string
  readonly bodies: string[]
  /** Completes the streamed response that is waiting. */
  release(): void
  close(): Promise<void>
}

async function model(): Promise<Model> {
  const bodies: string[] = []
  let waiting: (() => void) | undefined
  let served = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      bodies.push(body)
      const n = ++served
      const call = { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'grep', arguments: '{"q":"x"}', status: 'completed' }
      const response = { id: `resp_${n}`, object: 'response', status: 'completed', output: [call] }
      if ((JSON.parse(body) as { stream?: boolean }).stream !== true) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response))
      stream(res, response, call, (finish) => (waiting = finish))
    })
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    release: () => waiting!(),
    close: () =>
      new Promise((ok) => {
        server.close(() => ok())
        server.closeAllConnections()
      }),
  }
}

function stream(res: ServerResponse, response: Record<string, unknown>, item: unknown, hold: (finish: () => void) => void): void {
  const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`)
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  event({ type: 'response.created', response: { ...response, status: 'in_progress', output: [] } })
  event({ type: 'response.output_item.done', item })
  hold(() => {
    event({ type: 'response.completed', response })
    res.end()
  })
}

let server: Model
beforeEach(async () => {
  server = await model()
})
afterEach(() => server.close())

function guardedFetch() {
  let dispatched = 0
  const native = ((...args: Parameters<typeof fetch>) => (dispatched++, fetch(...args))) as typeof fetch
  return { fetch: createGuardedFetch(native, createWireAnalysis({ observe: false, config: () => DEFAULT_CONFIG, events: createGuardEvents() })), dispatched: () => dispatched }
}

const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const outputOf = (n: number) => ({ type: 'function_call_output', call_id: `call_${n}`, output: 'no match' })

test('a chain continued by id gets the reminder once, in the request where it became due', async () => {
  const { fetch: guarded } = guardedFetch()
  const url = `${server.origin}/v1/responses`
  let previous: string | undefined
  let input: unknown[] = [{ role: 'user', content: 'Find x.' }]
  const sent: string[] = []
  for (let step = 1; step <= 5; step++) {
    const body = { model: 'm', instructions: 'You search.', input, ...(previous ? { previous_response_id: previous } : {}) }
    sent.push(JSON.stringify(body))
    const response = (await (await guarded(url, post(body))).json()) as { id: string }
    previous = response.id
    input = [outputOf(step)]
  }
  expect(server.bodies.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 1, 0])
  // The request carrying the third output: the app's body with the reminder after it, nothing else.
  const item = JSON.stringify({ role: 'user', content: [{ type: 'input_text', text: GENTLE }] })
  expect(server.bodies[3]).toBe(sent[3]!.replace(`${JSON.stringify(outputOf(3))}]`, `${JSON.stringify(outputOf(3))},${item}]`))
  server.bodies.forEach((body, n) => n !== 3 && expect(body).toBe(sent[n]))
})

test('a request continuing a response still being read waits for that reading, then is guarded over the chain', async () => {
  const { fetch: guarded, dispatched } = guardedFetch()
  const url = `${server.origin}/v1/responses`
  // Two steps read whole, so that the third output makes the run of three.
  let previous: string | undefined
  let input: unknown[] = [{ role: 'user', content: 'Find x.' }]
  for (let step = 1; step <= 2; step++) {
    const body = { model: 'm', input, ...(previous ? { previous_response_id: previous } : {}) }
    previous = ((await (await guarded(url, post(body))).json()) as { id: string }).id
    input = [outputOf(step)]
  }
  // The third response streams: the app reads it until it knows its id, and sends the next request.
  const third = await guarded(url, post({ model: 'm', input, previous_response_id: previous, stream: true }))
  const reader = third.body!.getReader()
  let text = ''
  while (!text.includes('response.output_item.done')) text += new TextDecoder().decode((await reader.read()).value)
  const before = dispatched()
  const next = guarded(url, post({ model: 'm', input: [outputOf(3)], previous_response_id: 'resp_3' }))
  // Not sent at once (a request that need not wait is sent within the call); the reminder below
  // shows it went once the chain was known.
  expect(dispatched()).toBe(before)
  server.release()
  while (!(await reader.read()).done);
  await next
  expect(dispatched()).toBe(before + 1)
  expect(occurrences(server.bodies[3]!, GENTLE)).toBe(1)
})
