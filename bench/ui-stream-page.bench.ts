// Reading an AI SDK UI message stream while the page reads it (docs/zero-code.md, "Agents whose loop
// runs on the server"): the page's time from its fetch to the last chunk of a 2 MB stream, through
// the extension's fetch (which reads a copy of each chunk as the page reads it) against the native
// fetch, in Chromium to a local server, as ratios against a baseline measured in the same run
// (rounds interleaved, a second native arm as the control; nothing asserted on time: a missed target
// shows as `NO`). The page loads the extension's built MAIN-world script (dist/extension/page.js,
// exactly as shipped) after keeping the native fetch. The stream is written by the real `ai`
// package (createUIMessageStream, createUIMessageStreamResponse): a server loop of tool calls,
// each with its result, between long text answers; the server sends it in network-sized pieces.
import { createUIMessageStream, createUIMessageStreamResponse } from 'ai'
import { afterAll, expect, it } from 'vitest'
import { rowsWithControl } from './support/per-round-row.ts'
import type { RoundsWindow } from './support/rounds.ts'
import { keepForResults } from './support/results.ts'
import { openShippedScriptPage } from './support/shipped-script-page.ts'
import type { SpreadRow } from './support/spread-row.ts'

const rows: SpreadRow[] = []
keepForResults("agent event streams: the page's time to the last chunk of a UI message stream (Chromium)", () => rows)

afterAll(() => {
  console.log('\nagent event streams in the page (ratio: median over rounds; spread: 25th–75th percentile of the rounds; interval: where the median falls 95 times in 100)')
  console.table(rows)
})

const STEPS = 40
const DELTAS_PER_STEP = 50
const DELTA = 'The build is still running; checking again. '.repeat(22)
const PIECE = 16 * 1024
/**
 * Rounds per feed, each timing the three arms once: enough that the median's interval is narrower
 * than the target's margin (with a sixth as many, it was wider, and one run could not tell a met
 * target from a missed one). With the warm-up, each request of the guarded arm is still a chat of
 * its own that the wire guard keeps (it keeps 256: engine/wire/wire-guard.ts), so every round is
 * alike.
 */
const ROUNDS = 241

/** About 2 MB: every step answers in text, then calls the same tool, whose result follows. */
async function uiMessageStream(): Promise<{ text: string; headers: Record<string, string> }> {
  const stream = createUIMessageStream({
    execute({ writer }) {
      for (let step = 1; step <= STEPS; step++) {
        writer.write({ type: 'start-step' })
        writer.write({ type: 'text-start', id: `t${step}` })
        for (let i = 0; i < DELTAS_PER_STEP; i++) writer.write({ type: 'text-delta', id: `t${step}`, delta: DELTA })
        writer.write({ type: 'text-end', id: `t${step}` })
        if (step < STEPS) {
          writer.write({ type: 'tool-input-available', toolCallId: `call_${step}`, toolName: 'build_status', input: { id: 7 } })
          writer.write({ type: 'tool-output-available', toolCallId: `call_${step}`, output: 'running' })
        }
        writer.write({ type: 'finish-step' })
      }
    },
  })
  const response = createUIMessageStreamResponse({ stream })
  return { text: await response.text(), headers: Object.fromEntries(response.headers) }
}

/** In the page: native, hooked and native again, each reading one stream to its last chunk, in turns. */
const timeArms = async ([samples, size, path]: readonly [number, number, string]): Promise<{ times: number[][]; adopted: boolean[] }> => {
  const { interleaved } = (window as unknown as RoundsWindow).benchRounds
  const native = (window as unknown as { nativeFetch: typeof fetch }).nativeFetch
  if (native === fetch) throw new Error('fetch is not hooked: the page script did not run')
  let chat = 0
  /** One useChat request, its stream read to the last chunk as the AI SDK reads it; whether the guard adopted the response. */
  const read = async (send: typeof fetch): Promise<{ ms: number; adopted: boolean }> => {
    const body = JSON.stringify({ id: `chat_${++chat}`, messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'wait for the build' }] }], trigger: 'submit-message' })
    const start = performance.now()
    const response = await send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const reader = response.body!.getReader()
    let bytes = 0
    for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.byteLength
    const ms = performance.now() - start
    if (bytes < size) throw new Error(`read ${bytes} bytes of ${size}`)
    return { ms, adopted: Object.getOwnPropertyNames(response).includes('body') }
  }
  const arms = await interleaved(
    [native, fetch, native].map((send) => () => read(send)),
    samples,
    4,
  )
  return { times: arms.map((arm) => arm.map((r) => r.ms)), adopted: arms.map((arm) => arm.every((r) => r.adopted)) }
}

it('a 2 MB AI SDK UI message stream: the page reads it to its last chunk as fast as without the extension', async () => {
  const { text, headers } = await uiMessageStream()
  expect(text.length).toBeGreaterThan(1.5 * 1024 * 1024)
  expect(headers['x-vercel-ai-ui-message-stream']).toBe('v1')
  const { page, close } = await openShippedScriptPage('<!doctype html><script>window.nativeFetch = fetch</script><script src="/page.js"></script>', {
    route: (server) =>
      server.route((req, res) => {
        if (req.method !== 'POST' || !req.url?.startsWith('/chat')) return false
        // `/chat?feed`: the same events as a plain SSE feed, without the UI message stream's header.
        res.writeHead(200, { ...(req.url.includes('feed') ? { 'content-type': 'text/event-stream' } : headers), 'cache-control': 'no-store' })
        for (let at = 0; at < text.length; at += PIECE) res.write(text.slice(at, at + PIECE))
        res.end()
        return true
      }),
  })
  try {
    const result = await page.evaluate(timeArms, [ROUNDS, text.length, '/chat'] as const)
    // The guard read the hooked arm's streams, and only those.
    expect(result.adopted).toEqual([false, true, false])
    const size = `${(text.length / 1024 / 1024).toFixed(1)} MB`
    rows.push(...rowsWithControl(`${size} UI message stream, ${STEPS - 1} calls: time to the last chunk`, result.times, 1.05))
    // The same bytes as a plain SSE feed answering the same chat-shaped request: never adopted, never read by the guard.
    const feed = await page.evaluate(timeArms, [ROUNDS, text.length, '/chat?feed'] as const)
    expect(feed.adopted).toEqual([false, false, false])
    rows.push(...rowsWithControl(`the same ${size} as a plain SSE feed (no UI message stream header): time to the last chunk`, feed.times, 1.05))
  } finally {
    await close()
  }
})
