// An ignore list (`ignoreArgumentKeys`) as the per-call path reads it: the names for the cut, and
// each name as a JSON text writes it, to find at once that a text holds none of them. Most calls'
// arguments hold no volatile key, and a search of the text costs less than walking its members.
import { mapped, setOf, stringIndexOf } from '../intrinsics.ts'

export interface KeyNames {
  readonly names: ReadonlySet<string>
  /** Each name in quotes, as a JSON text holds it when it needs no escape. */
  readonly quoted: readonly string[]
}

/** The list's names, or undefined when it is empty: then nothing is cut. */
export const keyNamesOf = (keys: readonly string[] | undefined): KeyNames | undefined =>
  keys === undefined || keys.length === 0 ? undefined : { names: setOf(keys), quoted: mapped(keys, (key) => `"${key}"`) }

/**
 * Whether the JSON text `json` surely holds no member named in `keys`. A text with no backslash
 * writes every name as it is, in quotes: a name that is not found there is no member's. A text
 * with one may escape a name, so it cannot tell (false), and neither can a name found in it.
 */
export function holdsNone(json: string, keys: KeyNames): boolean {
  if (stringIndexOf(json, '\\') !== -1) return false
  // Indexed: a page may replace the array iterator.
  const { quoted } = keys
  for (let i = 0; i < quoted.length; i++) if (stringIndexOf(json, quoted[i]!) !== -1) return false
  return true
}
