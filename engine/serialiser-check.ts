import { errorText } from './text.ts'

/**
 * The serialiser (safe-stable-stringify) calls built-ins the page can replace: `Object.keys`,
 * `Array.isArray`, array `push`/`pop`/`indexOf`/`sort`, `JSON.stringify` for strings it must
 * escape, `RegExp.prototype.exec`... When it throws, the arguments may be at fault (a getter, a
 * proxy trap, a `toJSON`) or the page may have broken one of those built-ins. A sample that
 * needs every one of them tells the two apart: if the sample fails too, no canonical form can be
 * trusted, and the call must end as a fault rather than as a chain keyed on an error text.
 */
const SAMPLE: unknown = {
  // More keys than the serialiser sorts by hand, in reverse order, so that it calls `sort`.
  ...Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${200 - i}`, i])),
  list: [true, null, 1.5, 'needs "escaping"\n', { nested: [] }],
  typed: new Uint8Array(1),
}

/** A built-in the serialiser needs throws: nothing about the arguments can be concluded. */
export class BrokenSerialiserError extends Error {
  override readonly name = 'BrokenSerialiserError'
}

/** Throws `BrokenSerialiserError` when `stringify` fails on plain data. */
export function checkSerialiser(stringify: (value: unknown) => string | undefined): void {
  try {
    stringify(SAMPLE)
  } catch (error) {
    throw new BrokenSerialiserError(`a built-in the serialiser calls was replaced and throws: ${errorText(error)}`)
  }
}
