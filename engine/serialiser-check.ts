import { errorText } from './error-text.ts'

/**
 * The serialiser (safe-stable-stringify) calls built-ins the page can replace: `Object.keys`,
 * `Array.isArray`, array `push`/`pop`/`indexOf`/`sort`, `JSON.stringify` for strings it must
 * escape, `RegExp.prototype.exec`... When it throws, the arguments may be at fault (a getter, a
 * proxy trap, a `toJSON`) or the page may have broken one of those built-ins. A sample that
 * needs every one of them tells the two apart: if the sample fails too, no canonical form can be
 * trusted, and the call must end as a fault rather than as a chain keyed on an error text.
 */
const NativeUint8Array = Uint8Array
let sample: unknown
/**
 * Built on the first failure, not when the engine loads (every frame would pay for it), and with
 * no built-in the page could have replaced since: a plain loop and literals.
 */
function sampleData(): unknown {
  if (sample !== undefined) return sample
  // More keys than the serialiser sorts by hand, in reverse order, so that it calls `sort`.
  const keyed: Record<string, unknown> = {}
  for (let i = 0; i <= 200; i++) keyed[`k${200 - i}`] = i
  keyed.list = [true, null, 1.5, 'needs "escaping"\n', { nested: [] }]
  keyed.typed = new NativeUint8Array(1)
  return (sample = keyed)
}

/** A built-in the serialiser needs throws: nothing about the arguments can be concluded. */
export class BrokenSerialiserError extends Error {
  override readonly name = 'BrokenSerialiserError'
}

/** Throws `BrokenSerialiserError` when `stringify` fails on plain data. */
export function checkSerialiser(stringify: (value: unknown) => string | undefined): void {
  try {
    stringify(sampleData())
  } catch (error) {
    throw new BrokenSerialiserError(`a built-in the serialiser calls was replaced and throws: ${errorText(error)}`)
  }
}
