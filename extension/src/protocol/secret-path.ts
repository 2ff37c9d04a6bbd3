// Secrets written into a URL's path or fragment rather than its query (docs/security.md, "Secrets
// in URLs"): a Telegram bot's `/bot<token>/`, Slack's and Discord's webhook paths,
// `;jsessionid=` path parameters, and segments that look like keys. The page script calls this:
// it reads with captured built-ins only, and lets the expressions do the per-character work.
import { regExpExec, regExpTest, stringSlice } from '../../../engine/intrinsics.ts'
import { isSecretName } from './secret-names.ts'

/** What a removed value becomes. */
export const REDACTED = 'REDACTED'

/**
 * A run of letters, digits, `-` and `_` this long that mixes upper case, lower case and digits
 * looks like a key (an API key, a token, a JWT's parts), not a word or a name. Hex and UUIDs (one
 * case only) are left alone: they are mostly ids and hashes.
 */
const KEY_RUN = /[A-Za-z0-9_-]{20,}/g
const UPPER = /[A-Z]/
const LOWER = /[a-z]/
const DIGIT = /[0-9]/
const TELEGRAM_BOT = /^bot\d+(?::|%3[aA])/
const DISCORD_SUBDOMAIN = /\.discord(?:app)?\.com$/
const SLASH = /\//g
const SEMICOLON = /;/g
const SEMICOLON_AT = /;/
const AMPERSAND = /&/g
const EQUALS = /=/
const ROUTE = /^!?\//
const QUESTION = /\?/

/** `text` split at every match of `separator` (a global expression for one character). */
function split(text: string, separator: RegExp): string[] {
  const parts: string[] = []
  let from = 0
  separator.lastIndex = 0
  for (let found = regExpExec(separator, text); found !== null; found = regExpExec(separator, text)) {
    parts[parts.length] = stringSlice(text, from, found.index)
    from = found.index + 1
  }
  parts[parts.length] = stringSlice(text, from)
  return parts
}

function join(parts: readonly string[], separator: string): string {
  let out = ''
  for (let i = 0; i < parts.length; i++) out += i === 0 ? parts[i] : separator + parts[i]
  return out
}

/** `text` with every key-like run of characters replaced. */
function withoutKeys(text: string): string {
  let out = ''
  let from = 0
  KEY_RUN.lastIndex = 0
  for (let found = regExpExec(KEY_RUN, text); found !== null; found = regExpExec(KEY_RUN, text)) {
    const run = found[0]
    if (!regExpTest(UPPER, run) || !regExpTest(LOWER, run) || !regExpTest(DIGIT, run)) continue
    out += stringSlice(text, from, found.index) + REDACTED
    from = found.index + run.length
  }
  return from === 0 ? text : out + stringSlice(text, from)
}

/** `name=value` pairs joined by `separator`, the values of `secret` names replaced. */
export function redactPairs(text: string, separator: RegExp, joiner: string, secret: (name: string) => boolean): string {
  const pairs = split(text, separator)
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i]!
    const eq = regExpExec(EQUALS, pair)?.index
    if (eq !== undefined && secret(stringSlice(pair, 0, eq))) pairs[i] = `${stringSlice(pair, 0, eq)}=${REDACTED}`
  }
  return join(pairs, joiner)
}

/** One path segment: a bot token, key-like runs, and secret `;name=value` parameters. */
function redactSegment(segment: string): string {
  const semicolon = regExpExec(SEMICOLON_AT, segment)?.index
  const head = semicolon === undefined ? segment : stringSlice(segment, 0, semicolon)
  const params = semicolon === undefined ? '' : `;${redactPairs(stringSlice(segment, semicolon + 1), SEMICOLON, ';', isSecretName)}`
  return (regExpTest(TELEGRAM_BOT, head) ? `bot${REDACTED}` : withoutKeys(head)) + params
}

/** Segments of webhook URLs that are the secret itself, by host: the index of the first one. */
function webhookSecretFrom(host: string, segments: readonly string[]): number {
  // https://hooks.slack.com/services/T…/B…/<secret> (and /workflows/…, /triggers/…)
  if (host === 'hooks.slack.com') return 2
  // https://discord.com/api/webhooks/<id>/<token> (and /api/v10/webhooks/…)
  if (host === 'discord.com' || host === 'discordapp.com' || regExpTest(DISCORD_SUBDOMAIN, host)) for (let i = 1; i < segments.length; i++) if (segments[i] === 'webhooks') return i + 2
  return segments.length
}

/** A URL path (`/a/b;c=d`) with the secrets it holds replaced; `host` picks the webhook rules. */
export function redactPath(path: string, host: string): string {
  const segments = split(path, SLASH)
  const secretFrom = webhookSecretFrom(host, segments)
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    if (segment !== '') segments[i] = i >= secretFrom ? REDACTED : redactSegment(segment)
  }
  return join(segments, '/')
}

const anyName = () => true

/**
 * A fragment (without `#`), kept only when it is a route: its path read as a path, and every value
 * of its parameters (`#/chat?tab=2`) redacted whatever its name. Anything else is dropped whole. A
 * fragment never reaches a server, which makes it where pages keep what is only for the browser
 * (an OAuth implicit grant's token, the key of an end-to-end encrypted link), often unnamed.
 */
export function redactFragment(fragment: string): string {
  if (!regExpTest(ROUTE, fragment)) return ''
  const question = regExpExec(QUESTION, fragment)?.index
  if (question === undefined) return redactPath(fragment, '')
  return `${redactPath(stringSlice(fragment, 0, question), '')}?${redactPairs(withoutKeys(stringSlice(fragment, question + 1)), AMPERSAND, '&', anyName)}`
}
