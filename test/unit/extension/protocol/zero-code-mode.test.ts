import { describe, expect, test } from 'vitest'
import { defaultModeFor, frameOrigin, modeFor, originOf, readZeroCodeSettings } from '../../../../extension/src/protocol/zero-code-mode.ts'

describe('where zero-code mode rewrites by default', () => {
  test.each([
    ['http://localhost:5173/chat', 'guard'],
    ['http://agent.localhost/', 'guard'],
    ['http://127.0.0.1:8080/x', 'guard'],
    ['http://[::1]:3000/', 'guard'],
    ['http://[::1]/', 'guard'],
    ['http://LOCALHOST/', 'guard'],
    ['https://a.b.localhost:8443/', 'guard'],
    ['http://[::2]:3000/', 'observe'],
    ['http://localhost.:3000/', 'observe'],
    ['http://127.0.0.1.example:8080/', 'observe'],
    ['file:///home/me/agent.html', 'guard'],
    ['https://example.com/', 'observe'],
    ['https://localhost.example.com/', 'observe'],
    ['http://127.0.0.2/', 'observe'],
    ['http://192.168.1.2/', 'observe'],
    ['data:text/html,hi', 'observe'],
    ['not a url', 'observe'],
  ])('%s: %s', (url, mode) => {
    expect(defaultModeFor(originOf(url))).toBe(mode)
  })

  test("a frame's origin: an about:blank frame has its creator's; file: documents share one; opaque ones have none", () => {
    expect(frameOrigin({ origin: 'https://a.example', location: { protocol: 'about:' } })).toBe('https://a.example')
    expect(frameOrigin({ origin: 'null', location: { protocol: 'file:' } })).toBe('file://')
    expect(frameOrigin({ origin: 'null', location: { protocol: 'data:' } })).toBeUndefined()
  })
})

describe('the stored settings, read entry by entry', () => {
  test('valid entries apply; every bad one is refused with its reason, never a throw', () => {
    const { settings, rejected } = readZeroCodeSettings({
      'https://example.com': 'guard',
      'http://localhost:5173': 'off',
      'file://': 'observe',
      'https://example.com/': 'guard',
      'example.com': 'guard',
      'https://other.example': 'rewrite',
      'https://third.example': 3,
    })
    expect({ ...settings }).toEqual({ 'https://example.com': 'guard', 'http://localhost:5173': 'off', 'file://': 'observe' })
    expect(rejected).toEqual([
      '"https://example.com/" is not an origin (scheme://host[:port], or file://)',
      '"example.com" is not an origin (scheme://host[:port], or file://)',
      '"https://other.example": the setting must be one of guard, observe, off',
      '"https://third.example": the setting must be one of guard, observe, off',
    ])
    expect(modeFor(settings, 'https://example.com')).toBe('guard')
    expect(modeFor(settings, 'http://localhost:5173')).toBe('off')
    expect(modeFor(settings, 'https://unset.example')).toBe('observe')
    expect(modeFor(settings, 'http://localhost:9999')).toBe('guard')
    expect(modeFor(settings, undefined)).toBe('observe')
  })

  test('nothing stored, or not an object: defaults everywhere', () => {
    expect(readZeroCodeSettings(undefined)).toEqual({ settings: {}, rejected: [] })
    for (const value of [null, 'guard', ['https://a.example'], 7]) {
      const read = readZeroCodeSettings(value)
      expect({ ...read.settings }).toEqual({})
      expect(read.rejected).toEqual(['the stored value must be an object of origin: setting'])
    }
  })

  test('an inherited name is never a setting', () => {
    const { settings } = readZeroCodeSettings({})
    expect(modeFor(settings, 'toString')).toBe('observe')
    expect(modeFor(settings, '__proto__')).toBe('observe')
  })

  test('a huge value is capped, and a long key is named cut', () => {
    const value: Record<string, string> = {}
    for (let i = 0; i < 10_002; i++) value[`https://h${i}.example`] = 'guard'
    value[`https://${'a'.repeat(3_000)}.example`] = 'guard'
    const { settings, rejected } = readZeroCodeSettings(value)
    expect(Object.keys(settings)).toHaveLength(10_000)
    expect(rejected).toHaveLength(3)
    expect(rejected[2]).toMatch(/^"https:\/\/a{72}…" is not an origin/)
  })
})
