// Secrets must not travel: a URL the extension records, shows or exports loses its fragment (an
// OAuth implicit grant puts tokens there) and the values of query parameters named like keys
// (Gemini's `?key=`, signed URLs, OAuth codes). The parameter's name stays, so the URL still says
// what it was.
import { setOf } from '../../../engine/intrinsics.ts'

/** What a removed value becomes. */
export const REDACTED = 'REDACTED'

/** Parameter names whose values are secrets, compared lower-cased. */
const SECRET_NAMES = setOf([
  'key',
  'api_key',
  'apikey',
  'api-key',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'auth',
  'authorization',
  'sig',
  'signature',
  'secret',
  'client_secret',
  'password',
  'passwd',
  'pwd',
  'session',
  'sessionid',
  'session_id',
  'code',
  'credential',
  'credentials',
  'x-amz-signature',
  'x-amz-security-token',
  'x-amz-credential',
  'x-goog-signature',
  'x-goog-credential',
])

/** Compound names that end like a secret: `goog_api_key`, `x-auth-token`, `upload.signature`. */
const SECRET_SUFFIX = /[-_.](?:api[-_]?key|key|token|secret|signature|sig|password|passwd|pwd|auth|credential|session(?:[-_]?id)?)$/

function isSecretName(rawName: string): boolean {
  let name = rawName.replace(/\+/g, ' ')
  try {
    name = decodeURIComponent(name)
  } catch {
    // A malformed escape: judge the name as written.
  }
  name = name.trim().toLowerCase()
  return SECRET_NAMES.has(name) || SECRET_SUFFIX.test(name)
}

/** The query (without `?`) with every secret value replaced; other parameters keep their exact spelling. */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      const name = eq === -1 ? pair : pair.slice(0, eq)
      return eq !== -1 && isSecretName(name) ? `${name}=${REDACTED}` : pair
    })
    .join('&')
}

/**
 * `url` without its fragment, its user info's password, or the values of secret query
 * parameters. Never throws: a URL the URL API cannot parse keeps only what precedes its `?`/`#`.
 */
export function redactUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    const end = url.search(/[?#]/)
    return end === -1 ? url : url.slice(0, end)
  }
  parsed.hash = ''
  if (parsed.password !== '') parsed.password = REDACTED
  if (parsed.search.length > 1) parsed.search = redactQuery(parsed.search.slice(1))
  // `hash = ''` leaves a bare `#` on some URLs (`about:blank#`); nothing may follow it anyway.
  const href = parsed.href
  return href.endsWith('#') ? href.slice(0, -1) : href
}
