// Streamed Responses API responses through the page's fetch.
import { describe, expect, test } from 'vitest'
import { createStatefulResponses } from '../../../../../engine/wire/stateful/responses.ts'
import { LONGEST_WAIT_MS } from '../../../../../engine/wire/index.ts'
import { occurrences } from '../../../../fixtures/wire/placements.ts'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { call, first, next, json, sse, fedStream, page, post } from './responses-page.ts'
import { ticks } from '../../../support/ticks.ts'

describe('a streamed response', () => {
  test('a request continuing it goes out guarded once the page has read it; the page reads its own stream, whole', async () => {
    const p = page()
    const streams = [0, 1, 2].map(() => fedStream())
    const pageReads: string[] = []
    for (const [n, s] of streams.entries()) {
      p.answer(s.stream, 'text/event-stream')
      const response = await post(p, n === 0 ? first : next(`resp_${n - 1}`, n))
      const read = response.text().then((text) => pageReads.push(text))
      for (const piece of sse(`resp_${n}`, [call(n + 1)])) s.feed(piece)
      s.close()
      await read
    }
    const fourth = fedStream()
    p.answer(fourth.stream, 'text/event-stream')
    await post(p, next('resp_2', 3))
    expect(occurrences(p.sent[3]!, GENTLE)).toBe(1)
    expect(pageReads).toEqual([0, 1, 2].map((n) => sse(`resp_${n}`, [call(n + 1)]).join('')))
    expect(p.timers).toEqual([])
  })

  test('only the response it continues is waited for; one still being read under another id is not', async () => {
    const p = page()
    p.answer(json('resp_0', [call(1)]))
    await (await post(p, first)).text()
    // Another conversation's stream, still open and being read, its id told.
    const other = fedStream()
    p.answer(other.stream, 'text/event-stream')
    const otherRead = (await post(p, { ...first, instructions: 'another agent' })).text()
    other.feed(sse('resp_other', [])[0]!)
    await ticks()
    // The stream being continued, being read: its id told, not finished.
    const open = fedStream()
    p.answer(open.stream, 'text/event-stream')
    const openRead = (await post(p, next('resp_0', 1))).text()
    open.feed(sse('resp_1', [call(2)])[0]!)
    await ticks()
    p.answer(json('resp_2', []))
    const waiting = post(p, next('resp_1', 2))
    await ticks()
    expect(p.sent).toHaveLength(3)
    open.feed(sse('resp_1', [call(2)])[1]!)
    open.close()
    await waiting
    expect(p.sent).toHaveLength(4)
    other.close()
    await Promise.all([otherRead, openRead])
  })

  test('a body the page has not begun to read is not waited for: its continuation goes out at once', async () => {
    const p = page()
    const unread = fedStream()
    p.answer(unread.stream, 'text/event-stream')
    await post(p, first)
    for (const piece of sse('resp_0', [call(1)])) unread.feed(piece)
    p.answer(json('resp_1', []))
    const continued = post(p, next('resp_0', 1))
    await ticks()
    expect([p.sent.length, p.timers]).toEqual([2, []])
    expect(p.sent[1]).toBe(JSON.stringify(next('resp_0', 1)))
    await continued
  })

  test('a stream that fails: a fault, and its continuation goes out as the page made it; an abort is no fault', async () => {
    const p = page()
    const broken = fedStream()
    p.answer(broken.stream, 'text/event-stream')
    const response = await post(p, first)
    const read = response.text()
    broken.feed(sse('resp_0', [call(1)])[0]!)
    await ticks()
    broken.error(new TypeError('network error'))
    await expect(read).rejects.toThrow('network error')
    await ticks()
    expect(p.faults).toEqual([expect.stringContaining('network error')])
    p.answer(json('resp_1', []))
    await post(p, next('resp_0', 1))
    expect(p.sent[1]).toBe(JSON.stringify(next('resp_0', 1)))

    const aborted = fedStream()
    p.answer(aborted.stream, 'text/event-stream')
    const second = (await post(p, first)).text()
    aborted.error(new DOMException('The user aborted a request.', 'AbortError'))
    await expect(second).rejects.toThrow('aborted')
    await ticks()
    expect(p.faults).toHaveLength(1)
  })

  test('a stream left open after response.completed: the page stops reading there, and its continuation goes out guarded at once', async () => {
    const p = page()
    for (let n = 0; n < 3; n++) {
      const s = fedStream()
      p.answer(s.stream, 'text/event-stream')
      const response = await post(p, n === 0 ? first : next(`resp_${n - 1}`, n))
      for (const piece of sse(`resp_${n}`, [call(n + 1)])) s.feed(piece)
      // The server never ends this stream; the page, having read the completed response, goes on.
      const reader = response.body!.getReader()
      const decoder = new TextDecoder()
      let text = ''
      while (!text.includes('response.completed')) text += decoder.decode((await reader.read()).value, { stream: true })
    }
    p.answer(json('resp_3', []))
    const continued = post(p, next('resp_2', 3))
    await ticks()
    expect(p.sent).toHaveLength(4)
    await continued
    expect(occurrences(p.sent[3]!, GENTLE)).toBe(1)
    expect(p.timers).toEqual([])
    expect(p.faults).toEqual([])
  })

  test('a reading that stalls before its end holds the continuation at most the longest wait; it then goes out as the page made it, with a fault', async () => {
    const p = page()
    const stalled = fedStream()
    p.answer(stalled.stream, 'text/event-stream')
    void (await post(p, first)).text()
    stalled.feed(sse('resp_0', [call(1)])[0]!)
    await ticks()
    p.answer(json('resp_1', []))
    const continued = post(p, next('resp_0', 1))
    await ticks()
    expect(p.sent).toHaveLength(1)
    expect(p.timers).toEqual([LONGEST_WAIT_MS])
    p.elapse()
    expect(await (await continued).text()).toBe(json('resp_1', []))
    expect(p.sent[1]).toBe(JSON.stringify(next('resp_0', 1)))
    expect(p.faults).toEqual([expect.stringContaining('still being read')])
    // A reading that settles in time does not fire its timer late.
    const s = fedStream()
    p.answer(s.stream, 'text/event-stream')
    void (await post(p, first)).text()
    s.feed(sse('resp_2', [call(1)])[0]!)
    await ticks()
    p.answer(json('resp_3', []))
    const inTime = post(p, next('resp_2', 1))
    s.feed(sse('resp_2', [call(1)])[1]!)
    await inTime
    p.elapse()
    expect(p.sent).toHaveLength(4)
    expect(p.faults).toHaveLength(1)
  })

  test('a stream aborted once response.completed was read is remembered whole; one aborted before, not at all', async () => {
    const stateful = createStatefulResponses()
    const p = page(stateful)
    for (const [id, pieces] of [
      ['resp_whole', 2],
      ['resp_half', 1],
    ] as const) {
      const s = fedStream()
      p.answer(s.stream, 'text/event-stream')
      const read = (await post(p, first)).text()
      for (const piece of sse(id, [call(1)]).slice(0, pieces)) s.feed(piece)
      await ticks()
      s.error(new DOMException('The user aborted a request.', 'AbortError'))
      await expect(read).rejects.toThrow('aborted')
      await ticks()
    }
    expect([stateful.knows('resp_whole'), stateful.knows('resp_half')]).toEqual([true, false])
    expect(p.faults).toEqual([])
  })

  test('a page that cancels once response.completed was read: remembered whole, no fault; one cancelled before, not at all', async () => {
    const stateful = createStatefulResponses()
    const p = page(stateful)
    for (const [id, pieces] of [
      ['resp_whole', 2],
      ['resp_half', 1],
    ] as const) {
      const s = fedStream()
      p.answer(s.stream, 'text/event-stream')
      const reader = (await post(p, first)).body!.getReader()
      for (const piece of sse(id, [call(1)]).slice(0, pieces)) {
        s.feed(piece)
        await reader.read()
      }
      await reader.cancel()
    }
    expect([stateful.knows('resp_whole'), stateful.knows('resp_half')]).toEqual([true, false])
    expect(p.faults).toEqual([])
  })
})
