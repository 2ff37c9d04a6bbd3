// Responses API requests through the page's fetch, in Node: a separate realm stands for the page,
// its native fetch answers with Responses the test makes (JSON or a stream it feeds by hand). The
// response the page gets is the one the native fetch gave, its body read by the guard as the page
// reads it; a request continuing a response waits for that response's reading, and only for it.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { installFetchInterceptor } from '../../../extension/src/page/fetch/install.ts'
import { createStatefulResponses } from '../../../engine/wire/stateful/responses.ts'
import { createNativeLook } from '../../../extension/src/page/native-look.ts'
import { createReadsInProgress, LONGEST_WAIT_MS } from '../../../extension/src/page/responses/reads-in-progress.ts'
import { createResponsesTraffic } from '../../../extension/src/page/responses/traffic.ts'
import { createWireInspector } from '../../../extension/src/page/wire/inspector.ts'
import type { InspectorEvent } from '../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../extension/src/protocol/zero-code-mode.ts'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { STREAMS } from './page-streams.ts'

const SYSTEM = 'You are a careful coding agent.'
const URL_ = 'https://api.example/v1/responses'
const call = (n: number) => ({ type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'read_file', arguments: '{"path":"a.txt"}', status: 'completed' })
const output = (n: number) => ({ type: 'function_call_output', call_id: `call_${n}`, output: 'export const a = 1' })
const first = { model: 'm', instructions: SYSTEM, input: [{ role: 'user', content: 'go' }] }
const next = (previous: string, n: number, extra: object = {}) => ({ model: 'm', instructions: SYSTEM, previous_response_id: previous, input: [output(n)], ...extra })
const json = (id: string, out: readonly unknown[]) => JSON.stringify({ id, object: 'response', status: 'completed', output: out })
const sse = (id: string, out: readonly unknown[]) =>
  [
    `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', response: { id, output: [] } })}\n\n`,
    `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { id, output: out } })}\n\n`,
  ]

/** A response body the test feeds by hand. */
function fedStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
  const encoder = new TextEncoder()
  return { stream, feed: (text: string) => controller.enqueue(encoder.encode(text)), close: () => controller.close(), error: (e: unknown) => controller.error(e) }
}

interface Page {
  readonly fetch: typeof fetch
  /** The bodies that reached the native fetch, in order. */
  readonly sent: string[]
  readonly responses: Response[]
  readonly events: InspectorEvent[]
  readonly faults: string[]
  /** What the native fetch answers next. */
  answer(body: BodyInit | ReadableStream<Uint8Array>, type?: string): void
  mode: ZeroCodeMode
  /** The timers set, by delay; `elapse()` runs them all. */
  readonly timers: number[]
  elapse(): void
}

function page(stateful = createStatefulResponses()): Page {
  const queue: Response[] = []
  const state: Page = {
    fetch: undefined as unknown as typeof fetch,
    sent: [],
    responses: [],
    events: [],
    faults: [],
    answer: (body, type = 'application/json') => void queue.push(new Response(body as BodyInit, { headers: { 'content-type': type } })),
    mode: 'guard',
    timers: [],
    elapse: () => {
      for (const run of due.splice(0)) run()
    },
  }
  const due: (() => void)[] = []
  const later = (run: () => void, ms: number) => {
    state.timers.push(ms)
    due.push(run)
  }
  const native = function fetch(_url: unknown, init?: RequestInit) {
    state.sent.push(String(init?.body))
    const response = queue.shift() ?? new Response('{"error":{"message":"no answer"}}', { status: 400 })
    state.responses.push(response)
    return Promise.resolve(response)
  }
  const context = vm.createContext({ fetch: native, location: { href: 'https://app.example/' }, ...STREAMS })
  const target = vm.runInContext('globalThis', context) as typeof globalThis
  const inspector = createWireInspector({ config: () => RECOMMENDED_CONFIG, emit: (e) => state.events.push(e), hookSaw: () => false, now: Date.now })
  const traffic = createResponsesTraffic({ inspector, fault: (m) => state.faults.push(m), later, stateful })
  installFetchInterceptor({ target, mode: () => state.mode, inspector: () => inspector, showAsNative: createNativeLook(target), responses: () => traffic })
  return Object.assign(state, { fetch: target.fetch })
}

const post = (p: Page, body: object, url = URL_) => p.fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const ticks = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((ok) => setImmediate(ok))
}

/** Runs the loop the SDKs run with previous_response_id, on JSON responses: three calls. */
async function loop(p: Page, extra: object = {}) {
  const texts: string[] = []
  p.answer(json('resp_0', [call(1)]))
  texts.push(await (await post(p, { ...first, ...extra })).text())
  for (let n = 1; n <= 3; n++) {
    p.answer(json(`resp_${n}`, [call(n + 1)]))
    texts.push(await (await post(p, next(`resp_${n - 1}`, n, extra))).text())
  }
  return texts
}

describe('a loop continued by id', () => {
  test('the reminder is inserted once, in the request where it became due; the page reads its own responses, untouched', async () => {
    const p = page()
    const texts = await loop(p)
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 1])
    expect(JSON.parse(p.sent[3]!).input[1]).toEqual({ role: 'user', content: [{ type: 'input_text', text: GENTLE }] })
    expect(p.sent.slice(0, 3)).toEqual([first, next('resp_0', 1), next('resp_1', 2)].map((b) => JSON.stringify(b)))
    expect(texts).toEqual([0, 1, 2, 3].map((n) => json(`resp_${n}`, [call(n + 1)])))
    expect(p.faults).toEqual([])
  })

  test('the agent is shown as reached by responses-stateful, its reminder with its place in this request', async () => {
    const p = page()
    await loop(p)
    await ticks()
    expect(p.events.filter((e) => e.type === 'agent')).toEqual([
      { type: 'agent', at: expect.any(Number), agent: { id: 'wire:1', kind: 'wire', label: SYSTEM, format: 'openai-responses', reach: 'responses-stateful' } },
    ])
    expect(p.events.filter((e) => e.type === 'reminder')).toMatchObject([{ level: 'gentle', placement: 'input[1]' }])
  })

  test('observe: analysed and shown, never changed', async () => {
    const p = page()
    p.mode = 'observe'
    await loop(p)
    await ticks()
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 0])
    expect(p.events.filter((e) => e.type === 'reminder')).toMatchObject([{ withheld: 'observe', placement: 'input[1]' }])
  })

  test('off: not looked at, its responses not read; a continuation of them is not guessed at once guarded again', async () => {
    const stateful = createStatefulResponses()
    const p = page(stateful)
    p.mode = 'off'
    await loop(p)
    expect(stateful.knows('resp_0')).toBe(false)
    p.mode = 'guard'
    p.answer(json('resp_4', []))
    await post(p, next('resp_3', 4))
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 0, 0])
    expect(p.events).toEqual([])
  })

  test('store: false: the response is not read (the provider will not keep it), and no continuation of it is guessed at', async () => {
    const p = page()
    await loop(p, { store: false })
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 0])
    expect(p.events).toEqual([])
  })

  test('a body like it sent elsewhere, or a JSON body of no Responses request, takes the usual way', async () => {
    const p = page()
    p.answer(json('resp_0', [call(1)]))
    await post(p, first, 'https://api.example/v1/other')
    p.answer(json('resp_1', [call(1)]))
    await post(p, { model: 'm' })
    p.answer(json('resp_2', [call(2)]))
    await post(p, next('resp_0', 1), 'https://api.example/v1/other')
    expect(p.faults).toEqual([])
    expect(p.events).toEqual([])
  })
})

describe('a streamed response', () => {
  test('a request continuing it goes out guarded once the page has read it; the page reads its own stream, whole', async () => {
    const p = page()
    const streams = [0, 1, 2].map(() => fedStream())
    const pageReads: string[] = []
    for (const [n, s] of streams.entries()) {
      p.answer(s.stream, 'text/event-stream')
      const response = await post(p, n === 0 ? first : next(`resp_${n - 1}`, n))
      const read = response.text().then((text) => pageReads.push(text))
      for (const piece of sse(`resp_${n}`, [call(n + 1)])) s.feed(piece)
      s.close()
      await read
    }
    const fourth = fedStream()
    p.answer(fourth.stream, 'text/event-stream')
    await post(p, next('resp_2', 3))
    expect(occurrences(p.sent[3]!, GENTLE)).toBe(1)
    expect(pageReads).toEqual([0, 1, 2].map((n) => sse(`resp_${n}`, [call(n + 1)]).join('')))
    expect(p.timers).toEqual([])
  })

  test('only the response it continues is waited for; one still being read under another id is not', async () => {
    const p = page()
    p.answer(json('resp_0', [call(1)]))
    await (await post(p, first)).text()
    // Another conversation's stream, still open and being read, its id told.
    const other = fedStream()
    p.answer(other.stream, 'text/event-stream')
    const otherRead = (await post(p, { ...first, instructions: 'another agent' })).text()
    other.feed(sse('resp_other', [])[0]!)
    await ticks()
    // The stream being continued, being read: its id told, not finished.
    const open = fedStream()
    p.answer(open.stream, 'text/event-stream')
    const openRead = (await post(p, next('resp_0', 1))).text()
    open.feed(sse('resp_1', [call(2)])[0]!)
    await ticks()
    p.answer(json('resp_2', []))
    const waiting = post(p, next('resp_1', 2))
    await ticks()
    expect(p.sent).toHaveLength(3)
    open.feed(sse('resp_1', [call(2)])[1]!)
    open.close()
    await waiting
    expect(p.sent).toHaveLength(4)
    other.close()
    await Promise.all([otherRead, openRead])
  })

  test('a body the page has not begun to read is not waited for: its continuation goes out at once', async () => {
    const p = page()
    const unread = fedStream()
    p.answer(unread.stream, 'text/event-stream')
    await post(p, first)
    for (const piece of sse('resp_0', [call(1)])) unread.feed(piece)
    p.answer(json('resp_1', []))
    const continued = post(p, next('resp_0', 1))
    await ticks()
    expect([p.sent.length, p.timers]).toEqual([2, []])
    expect(p.sent[1]).toBe(JSON.stringify(next('resp_0', 1)))
    await continued
  })

  test('a stream that fails: a fault, and its continuation goes out as the page made it; an abort is no fault', async () => {
    const p = page()
    const broken = fedStream()
    p.answer(broken.stream, 'text/event-stream')
    const response = await post(p, first)
    const read = response.text()
    broken.feed(sse('resp_0', [call(1)])[0]!)
    await ticks()
    broken.error(new TypeError('network error'))
    await expect(read).rejects.toThrow('network error')
    await ticks()
    expect(p.faults).toEqual([expect.stringContaining('network error')])
    p.answer(json('resp_1', []))
    await post(p, next('resp_0', 1))
    expect(p.sent[1]).toBe(JSON.stringify(next('resp_0', 1)))

    const aborted = fedStream()
    p.answer(aborted.stream, 'text/event-stream')
    const second = (await post(p, first)).text()
    aborted.error(new DOMException('The user aborted a request.', 'AbortError'))
    await expect(second).rejects.toThrow('aborted')
    await ticks()
    expect(p.faults).toHaveLength(1)
  })

  test('a stream left open after response.completed: the page stops reading there, and its continuation goes out guarded at once', async () => {
    const p = page()
    for (let n = 0; n < 3; n++) {
      const s = fedStream()
      p.answer(s.stream, 'text/event-stream')
      const response = await post(p, n === 0 ? first : next(`resp_${n - 1}`, n))
      for (const piece of sse(`resp_${n}`, [call(n + 1)])) s.feed(piece)
      // The server never ends this stream; the page, having read the completed response, goes on.
      const reader = response.body!.getReader()
      const decoder = new TextDecoder()
      let text = ''
      while (!text.includes('response.completed')) text += decoder.decode((await reader.read()).value, { stream: true })
    }
    p.answer(json('resp_3', []))
    const continued = post(p, next('resp_2', 3))
    await ticks()
    expect(p.sent).toHaveLength(4)
    await continued
    expect(occurrences(p.sent[3]!, GENTLE)).toBe(1)
    expect(p.timers).toEqual([])
    expect(p.faults).toEqual([])
  })

  test('a reading that stalls before its end holds the continuation at most the longest wait; it then goes out as the page made it, with a fault', async () => {
    const p = page()
    const stalled = fedStream()
    p.answer(stalled.stream, 'text/event-stream')
    void (await post(p, first)).text()
    stalled.feed(sse('resp_0', [call(1)])[0]!)
    await ticks()
    p.answer(json('resp_1', []))
    const continued = post(p, next('resp_0', 1))
    await ticks()
    expect(p.sent).toHaveLength(1)
    expect(p.timers).toEqual([LONGEST_WAIT_MS])
    p.elapse()
    expect(await (await continued).text()).toBe(json('resp_1', []))
    expect(p.sent[1]).toBe(JSON.stringify(next('resp_0', 1)))
    expect(p.faults).toEqual([expect.stringContaining('still being read')])
    // A reading that settles in time does not fire its timer late.
    const s = fedStream()
    p.answer(s.stream, 'text/event-stream')
    void (await post(p, first)).text()
    s.feed(sse('resp_2', [call(1)])[0]!)
    await ticks()
    p.answer(json('resp_3', []))
    const inTime = post(p, next('resp_2', 1))
    s.feed(sse('resp_2', [call(1)])[1]!)
    await inTime
    p.elapse()
    expect(p.sent).toHaveLength(4)
    expect(p.faults).toHaveLength(1)
  })

  test('a stream aborted once response.completed was read is remembered whole; one aborted before, not at all', async () => {
    const stateful = createStatefulResponses()
    const p = page(stateful)
    for (const [id, pieces] of [['resp_whole', 2], ['resp_half', 1]] as const) {
      const s = fedStream()
      p.answer(s.stream, 'text/event-stream')
      const read = (await post(p, first)).text()
      for (const piece of sse(id, [call(1)]).slice(0, pieces)) s.feed(piece)
      await ticks()
      s.error(new DOMException('The user aborted a request.', 'AbortError'))
      await expect(read).rejects.toThrow('aborted')
      await ticks()
    }
    expect([stateful.knows('resp_whole'), stateful.knows('resp_half')]).toEqual([true, false])
    expect(p.faults).toEqual([])
  })

  test('a page that cancels once response.completed was read: remembered whole, no fault; one cancelled before, not at all', async () => {
    const stateful = createStatefulResponses()
    const p = page(stateful)
    for (const [id, pieces] of [['resp_whole', 2], ['resp_half', 1]] as const) {
      const s = fedStream()
      p.answer(s.stream, 'text/event-stream')
      const reader = (await post(p, first)).body!.getReader()
      for (const piece of sse(id, [call(1)]).slice(0, pieces)) {
        s.feed(piece)
        await reader.read()
      }
      await reader.cancel()
    }
    expect([stateful.knows('resp_whole'), stateful.knows('resp_half')]).toEqual([true, false])
    expect(p.faults).toEqual([])
  })
})

describe('waiting for a reading', () => {
  test('nothing to wait for when the response is known or nothing is being read', () => {
    const reads = createReadsInProgress((id) => id === 'known', () => undefined)
    expect(reads.settled('any')).toBeUndefined()
    reads.start()
    expect(reads.settled('known')).toBeUndefined()
    expect(reads.settled('any')).toBeInstanceOf(Promise)
  })

  test('a reading of unknown id is waited for until it tells another id; the reading of that id until it ends', async () => {
    const known = new Set<string>()
    const reads = createReadsInProgress((id) => known.has(id), () => undefined)
    const a = reads.start()
    const b = reads.start()
    let settled = false
    void reads.settled('r')!.then(() => (settled = true))
    a.identified('other')
    a.identified('ignored: told once')
    await ticks(2)
    expect(settled).toBe(false)
    b.identified('r')
    // A third reading of unknown id starts: it no longer matters, the reading of r is there.
    reads.start()
    await ticks(2)
    expect(settled).toBe(false)
    known.add('r')
    b.finish()
    b.finish()
    await ticks(2)
    expect(settled).toBe(true)
  })
})

describe('a page that replaces Reflect.apply after load', () => {
  test('its fetch still goes out, a Responses request\'s copy is still read, and its continuation is guarded', async () => {
    const p = page()
    const original = Reflect.apply
    const thrower = () => {
      throw new Error('replaced by the page')
    }
    p.answer(json('resp_0', [call(1)]))
    p.answer('plain')
    let sent: Promise<Response>[]
    Reflect.apply = thrower
    try {
      // Both calls made while it is replaced: the hooks' own work is synchronous up to the native fetch.
      sent = [post(p, first), p.fetch('https://app.example/other', { method: 'POST', body: '{"a":1}' })]
    } finally {
      Reflect.apply = original
    }
    expect(await Promise.all(sent.map(async (response) => (await response).text()))).toEqual([json('resp_0', [call(1)]), 'plain'])
    for (let n = 1; n <= 3; n++) {
      p.answer(json(`resp_${n}`, [call(n + 1)]))
      await (await post(p, next(`resp_${n - 1}`, n))).text()
    }
    expect(p.sent.map((body) => occurrences(body, GENTLE))).toEqual([0, 0, 0, 0, 1])
    expect(p.faults).toEqual([])
  })
})
