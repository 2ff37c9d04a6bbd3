// Zero-code mode's cost for XMLHttpRequests that are not LLM requests: an XHR through the hooked
// open/setRequestHeader/send against the native methods, in Chromium to a local server, as ratios
// against a baseline measured in the same run (rounds interleaved; nothing asserted on time: a
// missed target shows as `NO`). The page loads the extension's built MAIN-world script
// (dist/extension/page.js, exactly as shipped) after keeping the native methods, so both run side
// by side in one page, through Chromium's real network stack: the native arm is an XMLHttpRequest
// subclass whose open, setRequestHeader and send are the kept natives, the hooked arm a subclass that
// inherits the hooks, so both arms make the same calls in the same way. A second native batch in every round is the control. The calls alone,
// without the network (each XHR aborted at once), are timed as well, for information.
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { EXTENSION_DIR, launch } from '../test/e2e/support/browser.ts'
import { serve } from '../test/e2e/support/server.ts'
import { median } from './support/quantile.ts'
import { spreadRow, type SpreadRow } from './support/spread-row.ts'

const rows: SpreadRow[] = []

afterAll(() => {
  console.log('\nzero-code mode over XMLHttpRequest (ratio: median over rounds; spread: 25th–75th percentile of the rounds)')
  console.table(rows)
})

it('an XMLHttpRequest that is not an LLM request costs what the native one does', async () => {
  const pageScript = join(EXTENSION_DIR, 'page.js')
  expect(existsSync(pageScript), `no built extension at ${EXTENSION_DIR}: run npm run build`).toBe(true)
  const dir = await mkdtemp(join(tmpdir(), 'rtg-xhr-bench-'))
  // The native methods are kept before the extension's script hooks them, as a page script could not.
  await writeFile(
    join(dir, 'bench.html'),
    '<!doctype html><script>const p = XMLHttpRequest.prototype; window.nativeXhr = { open: p.open, setRequestHeader: p.setRequestHeader, send: p.send }</script><script src="/page.js"></script>',
  )
  const server = await serve([dir, EXTENSION_DIR])
  const big = JSON.stringify({ event: 'upload', items: Array.from({ length: 8_000 }, (_, i) => ({ id: i, label: `item ${i}`, tags: ['a', 'b'] })) })
  server.route((req, res) => {
    if (!req.url?.startsWith('/api/')) return false
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{"ok":true}')
    return true
  })
  const browser = await launch({ extension: false })
  try {
    const page = await browser.context.newPage()
    await page.goto(`${server.origin}/bench.html`)
    const cases = [
      ['GET', null],
      ['small JSON POST (analytics beacon)', JSON.stringify({ event: 'click', target: 'button#save', at: 1 })],
      [`${Math.round(big.length / 1024)} KB JSON POST`, big],
    ] as const
    for (const [name, body] of cases) {
      const result = await page.evaluate(async ([body, samples, batch]) => {
        type Kept = Pick<XMLHttpRequest, 'open' | 'setRequestHeader' | 'send'>
        const kept = (window as unknown as { nativeXhr: Kept }).nativeXhr
        if (kept.send === XMLHttpRequest.prototype.send) throw new Error('XMLHttpRequest is not hooked: the page script did not run')
        // Both arms are subclasses, built and dispatched alike; only the native one holds the kept methods.
        class NativeXhr extends XMLHttpRequest {}
        class HookedXhr extends XMLHttpRequest {}
        Object.assign(NativeXhr.prototype, kept)
        const method = body === null ? 'GET' : 'POST'
        /** One request as axios makes it: open, a header, send, the whole response read at loadend. */
        const request = (Xhr: typeof XMLHttpRequest) =>
          new Promise<void>((done, fail) => {
            const xhr = new Xhr()
            xhr.onloadend = () => (xhr.status === 200 && xhr.response !== '' ? done() : fail(new Error(`status ${xhr.status}`)))
            xhr.open(method, '/api/x')
            if (body !== null) xhr.setRequestHeader('Content-Type', 'application/json')
            xhr.send(body)
          })
        const time = async (Xhr: typeof XMLHttpRequest) => {
          const start = performance.now()
          for (let i = 0; i < batch; i++) await request(Xhr)
          return (performance.now() - start) / batch
        }
        const arms = [NativeXhr, HookedXhr, NativeXhr]
        const native: number[] = []
        const hooked: number[] = []
        const control: number[] = []
        for (let i = 0; i < samples + 4; i++) {
          const took: number[] = []
          for (let n = 0; n < arms.length; n++) {
            const arm = (i + n) % arms.length
            took[arm] = await time(arms[arm]!)
          }
          if (i < 4) continue // warm-up
          native.push(took[0]!)
          hooked.push(took[1]!)
          control.push(took[2]!)
        }
        // The calls alone: each XHR is aborted as soon as it is sent, so the network adds nothing.
        const count = body !== null && body.length > 10_000 ? 50 : 500
        const callCost = async (Xhr: typeof XMLHttpRequest) => {
          const start = performance.now()
          for (let i = 0; i < count; i++) {
            const xhr = new Xhr()
            xhr.open(method, '/api/x')
            if (body !== null) xhr.setRequestHeader('Content-Type', 'application/json')
            xhr.send(body)
            xhr.abort()
          }
          const cost = (performance.now() - start) / count
          await new Promise((settle) => setTimeout(settle, 0))
          return cost
        }
        const calls = { native: [] as number[], hooked: [] as number[] }
        for (let i = 0; i < 21; i++) {
          if (i % 2 === 0) {
            calls.native.push(await callCost(NativeXhr))
            calls.hooked.push(await callCost(HookedXhr))
          } else {
            calls.hooked.push(await callCost(HookedXhr))
            calls.native.push(await callCost(NativeXhr))
          }
        }
        return { native, hooked, control, calls }
      }, [body, 201, 4] as const)
      const request = median(result.native)
      rows.push(spreadRow(`pass-through: ${name}`, request, median(result.hooked), result.hooked.map((h, i) => h / result.native[i]!), 1.05))
      rows.push(spreadRow(`  control: native against itself (info)`, request, median(result.control), result.control.map((c, i) => c / result.native[i]!)))
      rows.push(
        spreadRow(`  the XHR calls alone, no network (info)`, median(result.calls.native), median(result.calls.hooked), result.calls.hooked.map((h, i) => h / result.calls.native[i]!)),
      )
    }
  } finally {
    await browser.close()
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
})
