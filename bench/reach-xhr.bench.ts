// Zero-code mode's cost for XMLHttpRequests that are not LLM requests: an XHR through the hooked
// open/setRequestHeader/send against the native methods, in Chromium to a local server, as ratios
// against a baseline measured in the same run (rounds interleaved; nothing asserted on time: a
// missed target shows as `NO`). The page loads the extension's built MAIN-world script
// (dist/extension/page.js, exactly as shipped) after keeping the native methods, so both run side
// by side in one page, through Chromium's real network stack: the native arm is an XMLHttpRequest
// subclass whose open, setRequestHeader and send are the kept natives, the hooked arm a subclass that
// inherits the hooks, so both arms make the same calls in the same way. A second native batch in every round is the control. The calls alone,
// without the network (each XHR aborted at once), are timed as well, for information.
import { afterAll, it } from 'vitest'
import { perRoundRow, rowsWithControl } from './support/per-round-row.ts'
import type { RoundsWindow } from './support/rounds.ts'
import { openShippedScriptPage, PASS_THROUGH_CASES } from './support/shipped-script-page.ts'
import { keepForResults } from './support/results.ts'
import type { SpreadRow } from './support/spread-row.ts'

const rows: SpreadRow[] = []
keepForResults('XMLHttpRequest pass-through (Chromium)', () => rows)

afterAll(() => {
  console.log('\nzero-code mode over XMLHttpRequest (ratio: median over rounds; spread: 25th–75th percentile of the rounds; interval: where the median falls 95 times in 100)')
  console.table(rows)
})

it('an XMLHttpRequest that is not an LLM request costs what the native one does', async () => {
  // The native methods are kept before the extension's script hooks them, as a page script could not.
  const { page, close } = await openShippedScriptPage(
    '<!doctype html><script>const p = XMLHttpRequest.prototype; window.nativeXhr = { open: p.open, setRequestHeader: p.setRequestHeader, send: p.send }</script><script src="/page.js"></script>',
  )
  try {
    for (const [name, body] of PASS_THROUGH_CASES) {
      const result = await page.evaluate(
        async ([body, samples, batch]) => {
          const { interleaved, alternating } = (window as unknown as RoundsWindow).benchRounds
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
          const arms = await interleaved(
            [NativeXhr, HookedXhr, NativeXhr].map((Xhr) => () => time(Xhr)),
            samples,
            4,
          )
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
          const calls = await alternating(
            () => callCost(NativeXhr),
            () => callCost(HookedXhr),
            21,
          )
          return { arms, calls }
        },
        [body, 201, 4] as const,
      )
      rows.push(...rowsWithControl(`pass-through: ${name}`, result.arms, 1.05))
      rows.push(perRoundRow(`  the XHR calls alone, no network (info)`, ...result.calls))
    }
  } finally {
    await close()
  }
})
