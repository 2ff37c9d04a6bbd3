import { describe, expect, it } from 'vitest'
import { createWakeTopFrame } from '../../../../extension/src/background/wake-top-frame.ts'
import type { BackgroundToContent } from '../../../../extension/src/protocol/messages.ts'
import { FakeClock } from '../support/fake-clock.ts'

const resync: BackgroundToContent = { v: 1, kind: 'resync' }

/**
 * A tab whose top frame starts to listen at `listensAt` (never, when undefined). It records every
 * call, to be checked after the run: an assertion thrown in here would read as "not listening".
 */
function tab(clock: FakeClock, listensAt: number | undefined) {
  const calls: { at: number; tabId: number; message: BackgroundToContent }[] = []
  const send = async (tabId: number, message: BackgroundToContent) => {
    calls.push({ at: clock.time, tabId, message })
    if (listensAt === undefined || clock.time < listensAt) throw new Error('Could not establish connection. Receiving end does not exist.')
  }
  return { calls, send }
}

/** Calls of the resync request to tab 7, at these times. */
const resyncsAt = (...times: number[]) => times.map((at) => ({ at, tabId: 7, message: resync }))

/** Runs the clock in steps, so that each rejected call has queued its retry before time moves on. */
async function run(clock: FakeClock, ms: number) {
  for (let t = 0; t < ms; t += 50) {
    await Promise.resolve()
    await Promise.resolve()
    clock.advance(50)
  }
}

describe("the worker's wake-up call to a tab's top frame", () => {
  it('is sent once to a page that listens', async () => {
    const clock = new FakeClock()
    const { calls, send } = tab(clock, 0)
    createWakeTopFrame({ send, later: clock.later })(7, resync)
    await run(clock, 10_000)
    expect(calls).toEqual(resyncsAt(0))
  })

  it('is sent again until the page listens (it does once it has loaded), then no more', async () => {
    const clock = new FakeClock()
    const { calls, send } = tab(clock, 1_000)
    createWakeTopFrame({ send, later: clock.later })(7, resync)
    await run(clock, 10_000)
    expect(calls).toEqual(resyncsAt(0, 250, 1_250))
  })

  it('gives up after three more calls to a tab that never listens', async () => {
    const clock = new FakeClock()
    const { calls, send } = tab(clock, undefined)
    createWakeTopFrame({ send, later: clock.later })(7, resync)
    await run(clock, 60_000)
    expect(calls).toEqual(resyncsAt(0, 250, 1_250, 4_250))
    expect(clock.pendingTimers).toBe(0)
  })
})
