import { describe, expect, test } from 'vitest'
import { addressOf, reportedAddress } from '../../../extension/src/page/page-address.ts'

const location = (href: string) => {
  const url = new URL(href)
  return { href, origin: url.origin, pathname: url.pathname, protocol: url.protocol } as Location
}

describe("the page's address, redacted by the on-demand half", () => {
  test('redacted as every URL the extension records is', () => {
    expect(reportedAddress(addressOf(location('https://app.example/chat?key=sk-1&q=2#access_token=t')))).toBe('https://app.example/chat?key=REDACTED&q=2')
  })

  test('with the built-ins the redaction calls replaced by throwing ones: the address up to its path, nothing secret-shaped', () => {
    const address = addressOf(location('https://user:pw@app.example/chat?key=sk-1#t'))
    const { split } = String.prototype
    String.prototype.split = () => {
      throw new Error('replaced by the page')
    }
    try {
      expect(reportedAddress(address)).toBe('https://app.example/chat')
    } finally {
      String.prototype.split = split
    }
    expect(reportedAddress(addressOf(location('data:text/html,secret')))).toBe('data:text/html,secret')
    expect(addressOf(location('data:text/html,secret')).bare).toBe('data:')
  })
})
