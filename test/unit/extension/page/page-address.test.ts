import { describe, expect, test } from 'vitest'
import { loadedAddress, reportedAddress } from '../../../../extension/src/page/page-address.ts'

/** A frame that loaded `loaded` and is now at `current` (a same-document navigation since). */
const frame = (loaded: string | undefined, current = loaded ?? 'about:blank') => ({
  location: { href: current },
  performance: { getEntriesByType: () => (loaded === undefined ? [] : [{ name: loaded }]) },
})
const originOf = (href: string) => new URL(href).origin

describe("the page's address, read and redacted by the on-demand half", () => {
  test('redacted as every URL the extension records is', () => {
    const href = 'https://app.example/chat?key=sk-1&q=2#access_token=t'
    expect(reportedAddress(loadedAddress(frame(href), originOf(href)))).toBe('https://app.example/chat?key=REDACTED&q=2')
  })

  test('the address the frame loaded at, not where pushState or a new fragment took it since', () => {
    const address = loadedAddress(frame('https://app.example/start?step=1', 'https://app.example/later#x'), 'https://app.example')
    expect(address.href).toBe('https://app.example/start?step=1')
    expect(reportedAddress(address)).toBe('https://app.example/start?step=1')
  })

  test('the current address where the frame has no navigation entry or the page broke `performance`', () => {
    expect(loadedAddress(frame(undefined, 'about:blank'), 'https://app.example').href).toBe('about:blank')
    const broken = {
      location: { href: 'https://app.example/now' },
      performance: {
        getEntriesByType: () => {
          throw new Error('replaced by the page')
        },
      },
    }
    expect(loadedAddress(broken, 'https://app.example').href).toBe('https://app.example/now')
  })

  const cases = [
    ['https://user:pw@app.example/chat?key=sk-1#t', 'https://app.example/chat', 'https://REDACTED:REDACTED@app.example/chat?key=REDACTED'],
    ['https://app.example:8443/a/b#key=x', 'https://app.example:8443/a/b', 'https://app.example:8443/a/b'],
    ['https://u@app.example?key=sk-1', 'https://app.example', 'https://REDACTED@app.example/?key=REDACTED'],
    ['http://127.0.0.1:5173/', 'http://127.0.0.1:5173/', 'http://127.0.0.1:5173/'],
  ] as const

  test('with the string built-ins replaced by throwing ones: redacted all the same, on the ones captured at start', () => {
    const addresses = cases.map(([href]) => loadedAddress(frame(href), originOf(href)))
    const { split, indexOf, slice, toLowerCase, replace } = String.prototype
    const replaced = () => {
      throw new Error('replaced by the page')
    }
    Object.assign(String.prototype, { split: replaced, indexOf: replaced, toLowerCase: replaced, replace: replaced })
    try {
      expect(addresses.map(reportedAddress)).toEqual(cases.map(([, , redacted]) => redacted))
      String.prototype.slice = replaced
      expect(reportedAddress(loadedAddress(frame(cases[0][0]), originOf(cases[0][0])))).toBe(cases[0][2])
    } finally {
      Object.assign(String.prototype, { split, indexOf, slice, toLowerCase, replace })
    }
  })

  test('with the URL parser replaced by a throwing one: the address up to its path, nothing secret-shaped', () => {
    const addresses = cases.map(([href]) => loadedAddress(frame(href), originOf(href)))
    const { URL } = globalThis
    // biome-ignore lint/complexity/useArrowFunction: it replaces a constructor, which an arrow cannot
    globalThis.URL = function () {
      throw new TypeError('replaced by the page')
    } as unknown as typeof URL
    try {
      expect(addresses.map(reportedAddress)).toEqual(cases.map(([, bare]) => bare))
    } finally {
      globalThis.URL = URL
    }
  })

  test('only the scheme of an address whose origin is opaque', () => {
    expect(reportedAddress(loadedAddress(frame('data:text/html,secret'), 'null'))).toBe('data:text/html,secret')
    expect(loadedAddress(frame('data:text/html,secret'), 'null').bare).toBe('data:')
    expect(loadedAddress(frame('file:///home/me/secret.html'), 'null').bare).toBe('file:')
    expect(loadedAddress(frame('about:srcdoc'), 'https://app.example').bare).toBe('about:srcdoc')
  })
})
