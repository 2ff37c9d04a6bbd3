// Which parameter names hold secrets (docs/security.md, "Secrets in URLs"). A name is read
// as words, whatever its spelling: `accessToken`, `access-token`, `ACCESS_TOKEN`, `access.token`
// and `access%5Ftoken` are all the words access + token. It is a secret when its words together
// are one of WHOLE_NAMES, or its last word, or its last two run together, is one of LAST_WORDS.
// The page script calls this, so it reads the name with captured built-ins only.
import { objectCreate, stringCharCodeAt } from '../../../engine/intrinsics.ts'

/** Names that are secrets as a whole, but not as the last word of a longer name (`country_code`). */
const WHOLE_NAMES = dictionary(['code', 'authorization', 'policy', 'jsessionid', 'phpsessid'])

/** Words that make a name a secret when it ends with them: `key`, `goog_api_key`, `sessionToken`. */
const LAST_WORDS = dictionary([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'auth',
  'sig',
  'signature',
  'credential',
  'credentials',
  'session',
  'sessionid',
  'jwt',
  'bearer',
  'ticket',
  'assertion',
])

/** Lower-case letters and digits, by their place: `+` on strings builds words without a method call. */
const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz'

function dictionary(words: readonly string[]): Readonly<Record<string, true>> {
  const out = objectCreate(null) as Record<string, true>
  for (let i = 0; i < words.length; i++) out[words[i]!] = true
  return out
}

const isDigit = (c: number) => c >= 48 && c <= 57
const isUpper = (c: number) => c >= 65 && c <= 90
const isLower = (c: number) => c >= 97 && c <= 122

function hexValue(c: number): number {
  if (isDigit(c)) return c - 48
  if (c >= 65 && c <= 70) return c - 55
  if (c >= 97 && c <= 102) return c - 87
  return -1
}

/** The name's code units with `%XX` escapes decoded and `+` read as a space (a form-encoded query). */
function decoded(name: string): number[] {
  const codes: number[] = []
  for (let i = 0; i < name.length; i++) {
    const c = stringCharCodeAt(name, i)
    const high = c === 37 && i + 2 < name.length ? hexValue(stringCharCodeAt(name, i + 1)) : -1
    const low = high === -1 ? -1 : hexValue(stringCharCodeAt(name, i + 2))
    if (low !== -1) {
      codes[codes.length] = high * 16 + low
      i += 2
    } else codes[codes.length] = c === 43 ? 32 : c
  }
  return codes
}

/** True when the query or path parameter `name` (as written in the URL) names a secret. */
export function isSecretName(name: string): boolean {
  const codes = decoded(name)
  let all = ''
  let last = ''
  let beforeLast = ''
  let word = ''
  const endWord = () => {
    if (word === '') return
    all += word
    beforeLast = last
    last = word
    word = ''
  }
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!
    if (isDigit(c) || isLower(c)) word += ALNUM[isDigit(c) ? c - 48 : c - 87]
    else if (isUpper(c)) {
      const previous = i > 0 ? codes[i - 1]! : -1
      const next = i + 1 < codes.length ? codes[i + 1]! : -1
      // camelCase (`accessToken`) and the end of an acronym (`APIKey`) start a new word.
      if (isLower(previous) || isDigit(previous) || (isUpper(previous) && isLower(next))) endWord()
      word += ALNUM[c - 55]
    } else endWord()
  }
  endWord()
  return WHOLE_NAMES[all] === true || LAST_WORDS[last] === true || LAST_WORDS[beforeLast + last] === true
}
