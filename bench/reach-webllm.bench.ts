// What WebLLM's hook costs a page that posts to workers without WebLLM: messages to a worker
// through the hooked `Worker.prototype.postMessage` against the native one, in Chromium. The page
// loads the extension's built MAIN-world script (dist/extension/page.js, exactly as shipped) after
// keeping a reference to the native postMessage, so both run side by side in one page, cross-origin
// isolated for a fine clock. A batch is timed until the worker has handled every message of it (it
// answers a last one), as a fetch is timed until its response: that is the target's row. The calls
// alone are shown as well (info): there the hook's fixed cost, most of it any Proxy's own (a bare
// forwarding one is timed beside it), weighs on a post of a few microseconds. Native and hooked
// batches take turns in rotating order and each round gives a ratio; a second native batch per round
// is the control: native against itself shows how far the ratio strays with nothing added. Nothing
// here asserts on time: a missed target shows as `NO` in the `met` column.
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { EXTENSION_DIR, launch } from '../test/e2e/support/browser.ts'
import { serve } from '../test/e2e/support/server.ts'
import { perRoundRow } from './support/per-round-row.ts'
import { keepForResults } from './support/results.ts'
import type { SpreadRow } from './support/spread-row.ts'

const TARGET = 1.05
const ROUNDS = 101
const WARM_UP = 4
/** Batches per arm and round, each timed until the worker has handled it: a queue left to grow slows every post. */
const BATCHES = 4

const results: SpreadRow[] = []
keepForResults('WebLLM: Worker.prototype.postMessage pass-through (Chromium)', () => results)

it('a postMessage to a worker that is not a WebLLM request costs what the native one does', async () => {
  const pageScript = join(EXTENSION_DIR, 'page.js')
  expect(existsSync(pageScript), `no built extension at ${EXTENSION_DIR}: run npm run build`).toBe(true)
  const dir = await mkdtemp(join(tmpdir(), 'rtg-webllm-bench-'))
  // The native postMessage is kept before the extension's script hooks it, as a page script could not.
  await writeFile(join(dir, 'bench.html'), '<!doctype html><script>window.nativePostMessage = Worker.prototype.postMessage</script><script src="/page.js"></script>')
  await writeFile(join(dir, 'worker.js'), "onmessage = (e) => { if (e.data === 'drain') postMessage('drained') }\n")
  const server = await serve([])
  // Cross-origin isolated, so that the page's clock is fine (5 µs, not 0.1 ms).
  const files: Record<string, string> = { '/bench.html': join(dir, 'bench.html'), '/worker.js': join(dir, 'worker.js'), '/page.js': pageScript }
  server.route(async (req, res) => {
    const file = files[req.url ?? '']
    if (file === undefined) return false
    res.writeHead(200, {
      'content-type': file.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cache-control': 'no-store',
    })
    res.end(await readFile(file))
    return true
  })
  const browser = await launch({ extension: false })
  const rows: SpreadRow[] = []
  try {
    const page = await browser.context.newPage()
    await page.goto(`${server.origin}/bench.html`)
    const cases = [
      ['a string', 'tick', 500],
      ['a small object', { type: 'tick', n: 1, at: 12.5, tags: ['a', 'b'] }, 500],
      ["WebLLM's next stream chunk (not a chat request)", { kind: 'completionStreamNextChunk', uuid: '8d5e6c1a-6b1c-4f3e-9d1e-2c0f7a9b3e41', content: { streamId: 's-1' } }, 500],
      ['a 100 KB object', { items: Array.from({ length: 1_500 }, (_, i) => ({ id: i, label: `item ${i}`, tags: ['a', 'b'], at: i * 1.5 })) }, 4],
    ] as const
    for (const [name, message, batch] of cases) {
      const result = await page.evaluate(
        async ([message, batch, batches, rounds, warmUp]) => {
          const native = (window as unknown as { nativePostMessage: Worker['postMessage'] }).nativePostMessage
          const hooked = Worker.prototype.postMessage
          if (native === hooked) throw new Error('postMessage is not hooked: the page script did not run')
          if (!crossOriginIsolated) throw new Error('the page is not cross-origin isolated: its clock is coarse')
          // The least any Proxy over the native adds: one that only forwards.
          const bare = new Proxy(native, { apply: (target, self, args) => Reflect.apply(target, self, args) })
          const worker = new Worker('/worker.js')
          /** Resolves once the worker has handled everything posted before. */
          const drain = (post: Worker['postMessage']) =>
            new Promise<void>((done) => {
              worker.addEventListener('message', () => done(), { once: true })
              post.call(worker, 'drain')
            })
          /** Per message: the calls alone, and until the worker has received them all. */
          const time = async (post: Worker['postMessage']) => {
            let calls = 0
            let delivered = 0
            for (let b = 0; b < batches; b++) {
              const start = performance.now()
              for (let i = 0; i < batch; i++) post.call(worker, message)
              calls += performance.now() - start
              await drain(post)
              delivered += performance.now() - start
            }
            return { calls: calls / (batch * batches), delivered: delivered / (batch * batches) }
          }
          const arms = [native, hooked, native, bare]
          const times = arms.map(() => ({ calls: [] as number[], delivered: [] as number[] }))
          await drain(native)
          for (let round = 0; round < rounds + warmUp; round++) {
            for (let n = 0; n < arms.length; n++) {
              const arm = (round + n) % arms.length
              const took = await time(arms[arm]!)
              if (round < warmUp) continue
              times[arm]!.calls.push(took.calls)
              times[arm]!.delivered.push(took.delivered)
            }
          }
          worker.terminate()
          return times
        },
        [message, batch, BATCHES, ROUNDS, WARM_UP] as const,
      )
      const [native, hooked, control, bare] = result
      rows.push(perRoundRow(`pass-through: ${name}, until the worker has it`, native!.delivered, hooked!.delivered, TARGET))
      rows.push(perRoundRow('  control: native against itself (info)', native!.delivered, control!.delivered))
      rows.push(perRoundRow('  the postMessage() call alone (info)', native!.calls, hooked!.calls))
      rows.push(perRoundRow('  the call alone, native against itself (info)', native!.calls, control!.calls))
      rows.push(perRoundRow('  the call alone, a bare forwarding Proxy (info)', native!.calls, bare!.calls))
    }
  } finally {
    await browser.close()
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
  console.log('\nWebLLM reach: Worker.prototype.postMessage (ratio: median over rounds; spread: 25th–75th percentile of the rounds; interval: where the median falls 95 times in 100)')
  console.table(rows)
  results.push(...rows)
})
