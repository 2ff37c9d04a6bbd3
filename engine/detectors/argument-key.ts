// `ignoreArgumentKeys` at work: the text two calls are compared by is their canonical arguments
// with the ignored keys cut out at any depth (without-keys.ts), so a call that differs only in a
// fresh request id or timestamp is the same call. What was called stays as it was for previews.
import { canonicalJson } from '../canonical.ts'
import type { ToolPolicy } from './policy.ts'
import { holdsNone } from './key-names.ts'
import { withoutKeys } from './without-keys.ts'

/**
 * The text a call of `policy`'s tool is compared by: `canonical` itself unless the policy ignores
 * keys (the default: one read). `raw` is the arguments as given: a string that holds no JSON is its
 * own canonical form and has no keys, even when it starts as JSON would (`{draft`).
 */
export function argumentsKey(policy: ToolPolicy, canonical: string, raw: unknown): string {
  const ignored = policy.ignoredArguments
  // Found at once in most texts, which hold none of the keys (key-names.ts).
  if (ignored === undefined || holdsNone(canonical, ignored)) return canonical
  if (typeof raw === 'string' && raw === canonical && canonicalJson(raw) === undefined) return canonical
  return withoutKeys(canonical, ignored.names)
}
