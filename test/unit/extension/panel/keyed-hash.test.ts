// The sanitized export's hash is HMAC-SHA-256: checked against Node's own, at every length where
// the padding changes shape, and for keys shorter, as long as and longer than a block.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { hmacSha256, sha256 } from '../../../../extension/src/panel/store/keyed-hash.ts'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

it('computes SHA-256 and HMAC-SHA-256 as Node does', () => {
  for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1_000, 100_000]) {
    const message = randomBytes(length)
    expect(hex(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'))
    for (const keyLength of [0, 16, 32, 64, 65, 100]) {
      const key = randomBytes(keyLength)
      expect(hex(hmacSha256(key)(message))).toBe(createHmac('sha256', key).update(message).digest('hex'))
    }
  }
})
