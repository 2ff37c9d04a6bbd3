// An ignore list (`ignoreArgumentKeys`) as the per-call path reads it: the names for the cut, and
// the names to search a JSON text for, to find at once that it holds none of them. Most calls'
// arguments hold no volatile key, and a search of the text costs less than walking its members.
import { setOf, stringIndexOf } from '../intrinsics.ts'

export interface KeyNames {
  readonly names: ReadonlySet<string>
  /**
   * The names in a list, searched for as they are and their quotes checked where found: a search
   * that starts with a quote stops at every quote of the text. Names are never empty (config.ts).
   */
  readonly searched: readonly string[]
}

/** The list's names, or undefined when it is empty: then nothing is cut. */
export const keyNamesOf = (keys: readonly string[] | undefined): KeyNames | undefined => (keys === undefined || keys.length === 0 ? undefined : { names: setOf(keys), searched: keys })

/**
 * Whether the JSON text `json` surely holds no member named in `keys`. A text with no backslash
 * writes every name as it is, in quotes: a name that is not found there in quotes is no member's.
 * A text with one may escape a name, so it cannot tell (false), and neither can a name found in it.
 */
export function holdsNone(json: string, keys: KeyNames): boolean {
  if (stringIndexOf(json, '\\') !== -1) return false
  // Indexed: a page may replace the array iterator.
  const { searched } = keys
  for (let i = 0; i < searched.length; i++) if (foundQuoted(json, searched[i]!)) return false
  return true
}

/** Whether `name` occurs in `json` between two quotes. */
function foundQuoted(json: string, name: string): boolean {
  for (let at = stringIndexOf(json, name); at !== -1; at = stringIndexOf(json, name, at + 1)) {
    if (json[at - 1] === '"' && json[at + name.length] === '"') return true
  }
  return false
}
