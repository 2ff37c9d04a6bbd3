// A Responses API response read into the stored responses as its caller reads it
// (engine/wire/stateful/response-sink.ts): remembered once read whole, its reading waited for by a
// request continuing it until the text ends, stops short or fails.
import { expect, test } from 'vitest'
import { createReadsInProgress } from '../../../engine/wire/stateful/reads-in-progress.ts'
import { responseSink } from '../../../engine/wire/stateful/response-sink.ts'
import { createStatefulResponses } from '../../../engine/wire/stateful/responses.ts'

const STREAM = [
  'data: {"type":"response.created","response":{"id":"resp_1","output":[]}}\n\n',
  'data: {"type":"response.completed","response":{"id":"resp_1","output":[{"type":"message","role":"assistant","content":[]}]}}\n\n',
]

function setUp() {
  const stateful = createStatefulResponses()
  const reads = createReadsInProgress(stateful.knows, () => undefined)
  const request = stateful.request(JSON.stringify({ model: 'm', input: 'hi' }))!
  const failures: unknown[] = []
  return { stateful, reads, sink: responseSink(stateful, reads, request, (error) => failures.push(error)), failures }
}

test('a response read to its end is remembered, and no request waits for it any more', () => {
  const { stateful, reads, sink } = setUp()
  // Half an event tells no id yet: every request of unknown id waits for this reading then.
  sink.chunk(STREAM[0]!.slice(0, 20))
  expect(reads.settled('resp_other')).toBeInstanceOf(Promise)
  sink.chunk(STREAM[0]!.slice(20))
  // Its id told: a request continuing it waits for this reading.
  expect(reads.settled('resp_1')).toBeInstanceOf(Promise)
  sink.chunk(STREAM[1]!)
  sink.end()
  expect([stateful.knows('resp_1'), reads.settled('resp_1')]).toEqual([true, undefined])
})

test('a reading cut short or failed is waited for no longer, and a failure is told why after the cut', () => {
  const cut = setUp()
  cut.sink.chunk(STREAM[0]!)
  cut.sink.cut()
  expect([cut.stateful.knows('resp_1'), cut.reads.settled('resp_1'), cut.failures]).toEqual([false, undefined, []])
  const failed = setUp()
  failed.sink.chunk(STREAM[0]!)
  const error = new TypeError('network')
  failed.sink.fail(error)
  expect([failed.reads.settled('resp_1'), failed.failures]).toEqual([undefined, [error]])
})
