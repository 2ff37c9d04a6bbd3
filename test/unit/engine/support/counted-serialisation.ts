// Counts the canonical serialisations and the shapes the guard asks for, the functions themselves
// being the real ones. A test file mocks the two engine modules with the factories below (vi.mock
// is hoisted per file, so each file that counts keeps its own short vi.mock call); the counters
// live here, one instance per test file, which the factories and the helpers share.
type CanonicalModule = typeof import('../../../../engine/canonical.ts')
type PlainShapeModule = typeof import('../../../../engine/plain-shape.ts')

const serialised = { calls: 0 }
const shaped = { calls: 0 }

/** The canonical module, its serialisations counted (the chain's, after its run's text, too). */
export async function countedCanonical(importOriginal: () => Promise<CanonicalModule>): Promise<CanonicalModule> {
  const canonical = await importOriginal()
  return {
    ...canonical,
    canonicalArguments: (value: unknown) => {
      serialised.calls++
      return canonical.canonicalArguments(value)
    },
    canonicalArgumentsAfter: (value: unknown, previous: string | undefined) => {
      serialised.calls++
      return canonical.canonicalArgumentsAfter(value, previous)
    },
  }
}

/** The plain-shape module, the shapes it makes counted: a repeat that reads as the run's shape makes none. */
export async function countedPlainShape(importOriginal: () => Promise<PlainShapeModule>): Promise<PlainShapeModule> {
  const plain = await importOriginal()
  return {
    ...plain,
    shapeOf: (value: unknown) => {
      shaped.calls++
      return plain.shapeOf(value)
    },
  }
}

/** Canonical serialisations `run` asks for. */
export function serialisationsIn(run: () => void): number {
  const before = serialised.calls
  run()
  return serialised.calls - before
}

/** Canonical serialisations and shapes `run` asks for. */
export function costOf(run: () => void): { canonical: number; shapes: number } {
  const before = shaped.calls
  const canonical = serialisationsIn(run)
  return { canonical, shapes: shaped.calls - before }
}

/** Takes off the toJSON a test gave BigInt, so the next test starts without it. */
export function forgetBigIntToJSON(): void {
  delete (BigInt.prototype as { toJSON?: unknown }).toJSON
}
