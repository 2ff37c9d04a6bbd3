// One time and one run mark per observed call (engine/call-clock.ts): every run a call starts is
// timed by the same mark, also when zero-code mode steers it (engine/run-marks.ts).
import { expect, it } from 'vitest'
import { createCallClock } from '../../../engine/call-clock.ts'
import { withRunMark } from '../../../engine/run-marks.ts'

it('gives a call the mark it first read, and the next call a mark of its own', () => {
  const clock = createCallClock()
  clock.next()
  // Steered when first read: every later read within the call gives that mark.
  expect(withRunMark(7, () => clock.mark())).toBe(7)
  const before = Date.now()
  expect(clock.mark()).toBe(7)
  clock.next()
  const own = clock.mark()
  expect(own).toBeGreaterThanOrEqual(before)
  expect(own).toBe(clock.at())
  clock.next()
  expect(withRunMark(8, () => clock.mark())).toBe(8)
})
