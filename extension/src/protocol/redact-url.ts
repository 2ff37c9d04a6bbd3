// Secrets must not travel: a URL the extension records, shows or exports loses its user info
// (`https://TOKEN@host`, `https://user:pass@host`), the values of query parameters named like keys
// (Gemini's `?key=`, `accessToken`, signed URLs' `X-Amz-Signature` or `Policy`, OAuth codes: see
// secret-names.ts), tokens written into its path (secret-path.ts), and every parameter value of its
// fragment, which is kept only when it is a route (`#/chat/42`). Names stay, so the URL still says
// what it was.
import { stringCharCodeAt, stringSlice } from '../../../engine/intrinsics.ts'
import { isSecretName } from './secret-names.ts'
import { REDACTED, redactFragment, redactPairs, redactPath } from './secret-path.ts'

export { REDACTED }

const AMPERSAND = /&/g

/**
 * `url` without its secrets. Never throws: a URL the URL API cannot parse keeps only what precedes
 * its `?`/`#`, without user info, its path's tokens redacted.
 */
export function redactUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return redactPath(withoutUserInfo(beforeQuery(url)), '')
  }
  if (parsed.username !== '') parsed.username = REDACTED
  if (parsed.password !== '') parsed.password = REDACTED
  const path = parsed.pathname
  // An opaque path (`about:blank`, `blob:https://…`) is not a list of segments.
  if (stringCharCodeAt(path, 0) === 47) {
    const redacted = redactPath(path, parsed.hostname)
    if (redacted !== path) parsed.pathname = redacted
  }
  if (parsed.search.length > 1) parsed.search = redactPairs(stringSlice(parsed.search, 1), AMPERSAND, '&', isSecretName)
  const fragment = parsed.hash.length > 1 ? redactFragment(stringSlice(parsed.hash, 1)) : ''
  parsed.hash = fragment
  // `hash = ''` leaves a bare `#` on some URLs (`about:blank#`); nothing may follow it anyway.
  const href = parsed.href
  return fragment === '' && stringCharCodeAt(href, href.length - 1) === 35 ? stringSlice(href, 0, href.length - 1) : href
}

/** What precedes the first `?` or `#`. */
function beforeQuery(url: string): string {
  for (let i = 0; i < url.length; i++) {
    const c = stringCharCodeAt(url, i)
    if (c === 63 || c === 35) return stringSlice(url, 0, i)
  }
  return url
}

/** `url` without what precedes an `@` in its authority (after `//`, before the next `/`). */
function withoutUserInfo(url: string): string {
  let start = -1
  for (let i = 0; i + 1 < url.length && start === -1; i++) if (stringCharCodeAt(url, i) === 47 && stringCharCodeAt(url, i + 1) === 47) start = i + 2
  if (start === -1) return url
  let userEnd = start
  for (let i = start; i < url.length && stringCharCodeAt(url, i) !== 47; i++) if (stringCharCodeAt(url, i) === 64) userEnd = i + 1
  return userEnd === start ? url : stringSlice(url, 0, start) + stringSlice(url, userEnd)
}
