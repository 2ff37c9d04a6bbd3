/** Texts up to this long stand for themselves: hashing them would cost more than it saves. */
const VERBATIM_MAX = 64

/**
 * A short, fixed-size stand-in for `text`: the text itself when short, otherwise its length and a
 * 53-bit digest (cyrb53). Remembering that a text of up to 65,536 characters was seen then costs
 * tens of bytes, not the text.
 */
export function textDigest(text: string): string {
  if (text.length <= VERBATIM_MAX) return `=${text}`
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return `#${text.length}:${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`
}
