// The search that finds at once that a call's arguments hold none of the ignored keys
// (engine/detectors/key-names.ts): a name counts only where a text writes it as a member's name
// could be, in quotes, and a text that escapes anything cannot tell.
import { describe, expect, it } from 'vitest'
import { holdsNone, keyNamesOf } from '../../../engine/detectors/key-names.ts'

const names = (...keys: string[]) => keyNamesOf(keys)!

describe('holdsNone', () => {
  it('finds a name in quotes, also after the same letters inside longer names', () => {
    expect(holdsNone('{"anonce":1,"nonce":2}', names('nonce'))).toBe(false)
    expect(holdsNone('{"a":"nonce"}', names('nonce'))).toBe(false)
    expect(holdsNone('{"path":"a.ts","requestId":"r-1"}', names('nonce', 'requestId'))).toBe(false)
  })

  it('tells a text that holds the letters only inside other names or words', () => {
    expect(holdsNone('{"anonce":1,"nonces":2,"text":"a nonce"}', names('nonce'))).toBe(true)
    expect(holdsNone('{"path":"src"}', names('nonce', 'requestId'))).toBe(true)
  })

  it('cannot tell for a text with a backslash', () => {
    expect(holdsNone('{"path":"a\\\\b"}', names('nonce'))).toBe(false)
  })
})
