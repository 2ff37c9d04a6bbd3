// The tests of how the guard reads the OpenAI Responses answers a page fetches, for any browser
// the harness drives (Chromium with Playwright, Firefox with Puppeteer): each runs the same page
// functions (pages/response-reads.ts) in a browser with the extension and in one without it. A
// page that reads one chunk of a long stream and cancels closes the connection at once, as it does
// without the extension. The Response the page gets is the browser's in everything the page can
// look at but its own keys (its body members are its own), read any way a page reads a body; any
// other response is the browser's alone; and the guard still reads what passes through (a loop
// continued by `previous_response_id` gets its reminder), even when the page has replaced the
// built-ins a body is read with.
import { describe, expect, test } from 'vitest'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { BIG_STREAM_PATH, routeBigStream, type BigStream } from '../support/big-stream.ts'
import type { MockLlm } from '../support/mock-llm.ts'
import type { TestServer } from '../support/server.ts'
import { routeBlankPage } from './blank-page.ts'
import { loopWithBuiltinsReplaced, observeResponse, READ_WAYS, readOneChunkAndCancel, runLoop, unwatchedErrorStacks, type ReadWay } from './pages/response-reads.ts'

export type Which = 'extension' | 'plain'

export interface ReadingStage {
  readonly mock: MockLlm
  readonly big: BigStream
  /** Runs `fn(arg)` in the page (at `/blank`, given `installPageReading`) of the browser with the extension, or without. */
  run<A, R>(which: Which, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>
}

const READ = { name: 'read_file', args: { path: 'notes.txt' } }
/** A Responses path that redirects (307 keeps the method and body) to the mock model's. */
const REDIRECTING = '/redirect/v1/responses'
export const LONG_STORY = JSON.stringify({ model: 'storyteller', input: 'Write a very long story.', stream: true })
export const runPath = (id: string): string => `${BIG_STREAM_PATH}?run=${id}`

/** The routes the tests need, before the mock model's: the blank page, the long stream, the redirect. */
export function routeResponseReading(server: TestServer, total: number): BigStream {
  routeBlankPage(server)
  server.route((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== REDIRECTING) return false
    res.writeHead(307, { location: '/v1/responses' }).end()
    return true
  })
  return routeBigStream(server, { total })
}

/** The members of a Response a page reads its body with. */
const BODY_MEMBERS = ['body', 'bodyUsed', 'clone', 'text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes']

const REMINDED_FOURTH = [
  [200, 0],
  [200, 0],
  [200, 0],
  [200, 1],
]
const remindersSent = (mock: MockLlm, model: string) => mock.exchanges.filter((e) => e.model === model).map((e) => [e.status, occurrences(e.body, GENTLE)])

export function describeResponseReading(stage: () => ReadingStage): void {
  let runs = 0

  test.each(['extension', 'plain'] as const)('%s: a long stream read one chunk, then cancelled: the connection closes, far short of the body', async (which) => {
    const { big, run } = stage()
    const id = `${which}-cancel-${++runs}`
    expect(await run(which, readOneChunkAndCancel, [runPath(id), LONG_STORY] as const)).toBeGreaterThan(0)
    const closed = await big.closed(id)
    expect({ finished: closed.finished, short: closed.written < big.total / 16 }).toEqual({ finished: false, short: true })
  })

  describe.each(
    READ_WAYS.flatMap((way): [ReadWay, boolean][] =>
      way === 'json'
        ? [[way, false]]
        : [
            [way, false],
            [way, true],
          ],
    ),
  )('read with %s (streamed: %s)', (way, stream) => {
    test("the Response is the browser's in all a page can look at, as without the extension", async () => {
      const { mock, run } = stage()
      const model = `observed-${way}-${stream}`
      mock.script(model, { steps: [[READ]] })
      const body = JSON.stringify({ model, input: [{ role: 'user', content: 'Look.' }], stream })
      const [withExtension, without] = await Promise.all((['extension', 'plain'] as const).map((which) => run(which, observeResponse, [REDIRECTING, body, way] as const)))
      expect(withExtension.record).toEqual(without.record)
      // What the comparison stands on.
      expect(without.record).toMatchObject({ instance: true, status: 200, url: '/v1/responses', redirected: true, type: 'basic', bodyUsedAfter: true, read: expect.stringMatching(/^ok: /) })
      // What differs: the body members are the watched response's own (not enumerable), so
      // `for...in` no longer lists them.
      const members = without.forIn.filter((key) => BODY_MEMBERS.includes(key))
      expect([without.ownKeys, withExtension.ownKeys.sort()]).toEqual([[], [...members].sort()])
      expect(withExtension.forIn).toEqual(without.forIn.filter((key) => !members.includes(key)))
    })

    test('the guard reads what passes through: the loop continued by id gets its reminder, and the page reads what it would without the extension', async () => {
      const { mock, run } = stage()
      const loop = async (which: Which) => {
        const model = `loop-${which}-${way}-${stream}`
        mock.script(model, { steps: Array.from({ length: 4 }, () => [READ]) })
        const texts = await run(which, runLoop, { model, way, stream, requests: 4 })
        return texts.map((text) => text.replaceAll(model, 'the model'))
      }
      const [withExtension, without] = await Promise.all([loop('extension'), loop('plain')])
      expect(withExtension).toEqual(without)
      expect(remindersSent(mock, `loop-extension-${way}-${stream}`)).toEqual(REMINDED_FOURTH)
    })
  })

  test("a response the guard does not watch is the browser's alone: the errors it throws have the stacks they have without the extension", async () => {
    const { run } = stage()
    const [withExtension, without] = await Promise.all((['extension', 'plain'] as const).map((which) => run(which, unwatchedErrorStacks, '/blank')))
    expect(without).toHaveLength(3)
    expect(withExtension).toEqual(without)
  })

  test('a page that replaced the stream, Response and decoder built-ins after load: the guard still reads, calling none of them', async () => {
    const { mock, run } = stage()
    // The guard's on-demand half started first: what it calls when it starts is not this test's.
    mock.script('warm-up', { steps: [[READ]] })
    await run('extension', runLoop, { model: 'warm-up', way: 'text', stream: false, requests: 1 })
    for (const stream of [false, true]) {
      const model = `replaced-${stream}`
      mock.script(model, { steps: Array.from({ length: 4 }, () => [READ]) })
      const { texts, called } = await run('extension', loopWithBuiltinsReplaced, { model, way: 'text', stream, requests: 4 })
      expect(called).toEqual([])
      expect(texts).toHaveLength(4)
      expect(remindersSent(mock, model)).toEqual(REMINDED_FOURTH)
    }
  })
}
