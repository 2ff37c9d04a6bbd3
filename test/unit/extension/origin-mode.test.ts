import { describe, expect, test } from 'vitest'
import { createOriginMode } from '../../../extension/src/page/origin-mode.ts'

/** A frame whose `location` counts its reads: the start-up half must not touch it. */
function frame(protocol: string) {
  let reads = 0
  const win = {
    get location() {
      reads++
      return { protocol }
    },
  }
  return { win: win as unknown as Window, reads: () => reads }
}

describe("zero-code mode's setting for the frame's origin", () => {
  test("the origin's default, found by the first request and not before", () => {
    const local = frame('http:')
    const mode = createOriginMode(local.win, 'http://localhost:5173')
    expect(local.reads()).toBe(0)
    expect(mode.current()).toBe('guard')
    expect(mode.current()).toBe('guard')
    expect(local.reads()).toBe(1)
    expect(createOriginMode(frame('https:').win, 'https://app.example').current()).toBe('observe')
    expect(createOriginMode(frame('file:').win, 'null').current()).toBe('guard')
    expect(createOriginMode(frame('data:').win, 'null').current()).toBe('observe')
  })

  test('the origin read at document_start decides, whatever the page sets `window.origin` to later', () => {
    const remote = frame('https:')
    const mode = createOriginMode(remote.win, 'https://app.example')
    Object.assign(remote.win, { origin: 'http://localhost' })
    expect(mode.current()).toBe('observe')
  })

  test('the stored setting, once the relay brings it, replaces the default, read or not', () => {
    const unread = createOriginMode(frame('https:').win, 'https://app.example')
    unread.set('off')
    expect(unread.current()).toBe('off')
    const read = createOriginMode(frame('http:').win, 'http://localhost')
    expect(read.current()).toBe('guard')
    read.set('observe')
    expect(read.current()).toBe('observe')
  })
})
