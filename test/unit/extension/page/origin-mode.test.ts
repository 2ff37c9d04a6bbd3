import { describe, expect, test } from 'vitest'
import { createOriginMode } from '../../../../extension/src/page/origin-mode.ts'

/** A frame whose `location` counts its reads: its first touch costs every frame. */
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
  test("the origin's default, from the origin alone: `location` is never read", () => {
    const local = frame('http:')
    const mode = createOriginMode(local.win, 'http://localhost:5173')
    expect(mode.current()).toBe('guard')
    const remote = frame('https:')
    expect(createOriginMode(remote.win, 'https://app.example').current()).toBe('observe')
    expect(local.reads() + remote.reads()).toBe(0)
  })

  test('an opaque or file origin: the scheme decides, read by the first request and not before', () => {
    const file = frame('file:')
    const fileMode = createOriginMode(file.win, 'null')
    expect(file.reads()).toBe(0)
    expect(fileMode.current()).toBe('guard')
    expect(fileMode.current()).toBe('guard')
    expect(file.reads()).toBe(1)
    expect(createOriginMode(frame('file:').win, 'file://').current()).toBe('guard')
    expect(createOriginMode(frame('data:').win, 'null').current()).toBe('observe')
  })

  test('decided with the built-ins of document_start: a page that replaces them, or `window.origin`, later changes nothing', () => {
    const modes = [createOriginMode(frame('http:').win, 'http://127.0.0.1:8080'), createOriginMode(frame('https:').win, 'https://app.example')]
    const remote = frame('https:').win
    const remoteMode = createOriginMode(remote, 'https://app.example')
    const { indexOf, slice, startsWith, endsWith } = String.prototype
    const replaced = () => {
      throw new Error('replaced by the page')
    }
    Object.assign(String.prototype, { indexOf: replaced, slice: replaced, startsWith: replaced, endsWith: replaced })
    Object.assign(remote, { origin: 'http://localhost' })
    try {
      expect(modes.map((mode) => mode.current())).toEqual(['guard', 'observe'])
      expect(remoteMode.current()).toBe('observe')
      expect(createOriginMode(frame('file:').win, 'null').current()).toBe('guard')
    } finally {
      Object.assign(String.prototype, { indexOf, slice, startsWith, endsWith })
    }
  })

  test('the stored setting, once the relay brings it, replaces the default, read or not', () => {
    const unread = createOriginMode(frame('file:').win, 'null')
    unread.set('off')
    expect(unread.current()).toBe('off')
    const read = createOriginMode(frame('http:').win, 'http://localhost')
    expect(read.current()).toBe('guard')
    read.set('observe')
    expect(read.current()).toBe('observe')
  })
})
