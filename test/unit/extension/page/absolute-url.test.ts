// A request's URL as the panel shows it (extension/src/page/wire/absolute-url.ts): resolved against
// the frame's address, and parsed again only when the string or the address differs from the last.
import { describe, expect, test } from 'vitest'
import { createAbsoluteUrl } from '../../../../extension/src/page/wire/absolute-url.ts'

/** A frame at `href` (which the test moves, as pushState does), counting the URLs parsed. */
function frame(href: string) {
  const state = { href, parsed: 0 }
  const CountingUrl = new Proxy(URL, {
    construct(target, args: [string, string?]) {
      state.parsed++
      return new target(...args)
    },
  })
  const target = {
    URL: CountingUrl,
    location: {
      get href() {
        return state.href
      },
    },
  } as unknown as typeof globalThis
  return { state, absolute: createAbsoluteUrl(target) }
}

describe('a relative URL', () => {
  test('resolved against the frame address; the same string at the same address is parsed once', () => {
    const { state, absolute } = frame('https://app.example/chat/page')
    expect(absolute('api/run')).toBe('https://app.example/chat/api/run')
    expect(absolute('api/run')).toBe('https://app.example/chat/api/run')
    expect(state.parsed).toBe(1)
  })

  test('once the frame moved, resolved against its new address', () => {
    const { state, absolute } = frame('https://app.example/chat/page')
    expect(absolute('api/run')).toBe('https://app.example/chat/api/run')
    state.href = 'https://app.example/other/page'
    expect(absolute('api/run')).toBe('https://app.example/other/api/run')
    expect(state.parsed).toBe(2)
  })

  test('another string is resolved on its own; one that does not parse is itself, every time', () => {
    const { absolute } = frame('https://app.example/chat/page')
    expect(absolute('api/run')).toBe('https://app.example/chat/api/run')
    expect(absolute('/v1/chat')).toBe('https://app.example/v1/chat')
    const blank = frame('about:blank')
    expect(blank.absolute('api/run')).toBe('api/run')
    expect(blank.absolute('api/run')).toBe('api/run')
    expect(blank.absolute('https://x.example/a')).toBe('https://x.example/a')
  })

  test('a URL object is its own href; anything else is no URL', () => {
    const { absolute } = frame('https://app.example/chat/page')
    expect(absolute(new URL('https://x.example/b?c=1'))).toBe('https://x.example/b?c=1')
    expect(absolute(42)).toBeUndefined()
  })
})
