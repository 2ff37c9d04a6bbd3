// A request continuing a response waits for that response's reading, and only for it.
import { describe, expect, test } from 'vitest'
import { createReadsInProgress } from '../../../engine/wire/stateful/reads-in-progress.ts'
import { ticks } from '../support/ticks.ts'

describe('waiting for a reading', () => {
  test('nothing to wait for when the response is known or nothing is being read', () => {
    const reads = createReadsInProgress(
      (id) => id === 'known',
      () => undefined,
    )
    expect(reads.settled('any')).toBeUndefined()
    reads.start()
    expect(reads.settled('known')).toBeUndefined()
    expect(reads.settled('any')).toBeInstanceOf(Promise)
  })

  test('a reading of unknown id is waited for until it tells another id; the reading of that id until it ends', async () => {
    const known = new Set<string>()
    const reads = createReadsInProgress(
      (id) => known.has(id),
      () => undefined,
    )
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
