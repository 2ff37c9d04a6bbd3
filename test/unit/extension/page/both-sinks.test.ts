// A Responses API response read for its chain and for waste at once (docs/zero-code.md, "Waste"):
// one reading of the page's, both sinks fed, each until it wants no more.
import { expect, test } from 'vitest'
import type { BodySink } from '../../../../extension/src/page/responses/body-watcher.ts'
import { bothSinks } from '../../../../extension/src/page/responses/usage.ts'

function recording(wants: number) {
  const seen: string[] = []
  const sink: BodySink = {
    chunk: (text) => (seen.push(text), seen.length < wants),
    end: () => void seen.push('end'),
    cut: () => void seen.push('cut'),
    fail: (error) => void seen.push(`fail ${String(error)}`),
  }
  return { seen, sink }
}

test('each sink gets the text until it wants no more, and is ended then; the pair wants more while either does', () => {
  const first = recording(1)
  const second = recording(4)
  const both = bothSinks(first.sink, second.sink)
  expect(['a', 'b'].map((text) => both.chunk(text))).toEqual([true, true])
  expect(first.seen).toEqual(['a', 'end'])
  both.end()
  expect(first.seen).toEqual(['a', 'end'])
  expect(second.seen).toEqual(['a', 'b', 'end'])
  const done = recording(1)
  expect(bothSinks(done.sink, recording(1).sink).chunk('a')).toBe(false)
})

test('a cut and a failure reach both; a missing second sink leaves the first alone', () => {
  const first = recording(9)
  const second = recording(9)
  bothSinks(first.sink, second.sink).cut()
  const failing = bothSinks(first.sink, second.sink)
  failing.fail('boom')
  // Ended once: nothing after.
  failing.end()
  expect([first.seen, second.seen]).toEqual([
    ['cut', 'fail boom'],
    ['cut', 'fail boom'],
  ])
  expect(bothSinks(first.sink, undefined)).toBe(first.sink)
})
