// The serialiser's two configurations. The dependency makes them with built-ins the page can
// replace (and keeps its instance on the global object, which the extension's build turns into an
// object of the script's own: scripts/build.mjs): in the extension this module loads
// at document_start, before any page script, even when the rest of the engine loads later (it is
// then handed this module's instance, like intrinsics.ts's). The fast configuration is made then.
import { configure } from 'safe-stable-stringify'

/** The dependency's serialiser, as its own types describe it (they do not export the name). */
type Stringify = ReturnType<typeof configure>

// Deeper nesting is cut (`"[Object]"`): recursion stays far from the stack limit, whose depth
// varies with the caller, so the canonical form stays the same from call to call.
export const MAX_DEPTH = 256
const OPTIONS = { deterministic: true, bigint: true, circularValue: '[Circular]', maximumDepth: MAX_DEPTH } as const
// Key-sorted, and total for cycles and BigInt. The fast path lets a throw escape so that plain
// data is serialised exactly once; only arguments that throw take the slow, safe path.
export const stringify: Stringify = configure(OPTIONS)
let safely: Stringify | undefined
/**
 * `safe` turns what still fails on a plain copy (a string too long to quote) into an error text.
 * Made by its first use, not by every frame's start-up: only arguments that throw need it, and its
 * configuration calls no built-in but `Number.isInteger` and `Function.prototype.call`.
 */
export const stringifySafely = (value: unknown): string | undefined => (safely ??= configure({ ...OPTIONS, safe: true }))(value)
