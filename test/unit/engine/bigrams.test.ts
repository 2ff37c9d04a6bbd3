// The near-repeat similarity (engine/detectors/bigrams.ts) against a plain reference: the
// Sørensen–Dice coefficient of two bigram multisets counted in a Map, over generated texts.
import { expect, it } from 'vitest'
import { bigramTextOf, diceCoefficient } from '../../../engine/detectors/bigrams.ts'
import { random } from './support/generated-arguments.ts'

function reference(a: string, b: string): number {
  const grams = (text: string) => {
    const counts = new Map<string, number>()
    for (let i = 0; i + 1 < text.length; i++) counts.set(text.slice(i, i + 2), (counts.get(text.slice(i, i + 2)) ?? 0) + 1)
    return counts
  }
  const x = grams(a.toLowerCase().slice(0, 4096))
  const y = grams(b.toLowerCase().slice(0, 4096))
  let common = 0
  let total = 0
  for (const [gram, count] of x) {
    common += Math.min(count, y.get(gram) ?? 0)
    total += count
  }
  for (const count of y.values()) total += count
  return total === 0 ? (a.toLowerCase() === b.toLowerCase() ? 1 : 0) : (2 * common) / total
}

it('decides as the plain reference over generated pairs, repeated and wide characters included', () => {
  const rng = random(29)
  // Few letters, so bigrams repeat; a surrogate pair and a letter above 255 exercise every radix pass.
  const alphabet = ['a', 'b', 'A', 'ab', '\u{1F600}', 'é', 'ǅ', '"', '{']
  const textOf = () => Array.from({ length: rng.int(60) }, () => alphabet[rng.int(alphabet.length)]).join('')
  for (let i = 0; i < 400; i++) {
    const a = textOf()
    const b = rng.chance(0.3) ? a + textOf() : textOf()
    expect(diceCoefficient(bigramTextOf(a), bigramTextOf(b))).toBeCloseTo(reference(a, b), 12)
  }
})

it('compares texts too short for a bigram by equality, after lower-casing', () => {
  expect(diceCoefficient(bigramTextOf('A'), bigramTextOf('a'))).toBe(1)
  expect(diceCoefficient(bigramTextOf('a'), bigramTextOf('b'))).toBe(0)
  expect(diceCoefficient(bigramTextOf(''), bigramTextOf('ab'))).toBe(0)
})

it('reads only the first 4,096 characters', () => {
  const head = 'ab'.repeat(2048)
  expect(diceCoefficient(bigramTextOf(`${head}xyz`), bigramTextOf(`${head}${'q'.repeat(9000)}`))).toBe(1)
  expect(bigramTextOf('x'.repeat(10_000)).bigrams.length).toBe(4095)
})

it("compares with the built-ins the engine captured, never the page's replacements", () => {
  // docs/security.md, "A page that replaces built-ins": each replacement throws if called; all are
  // put back before anything else runs.
  const replaced = [
    [String.prototype, 'toLowerCase'],
    [String.prototype, 'charCodeAt'],
    [String.prototype, 'slice'],
    [Object.getPrototypeOf(Uint32Array.prototype) as object, 'fill'],
    [globalThis, 'Uint32Array'],
  ] as const
  const originals = replaced.map(([owner, key]) => Object.getOwnPropertyDescriptor(owner, key)!)
  let similarity: number
  try {
    for (const [owner, key] of replaced) {
      Object.defineProperty(owner, key, {
        configurable: true,
        writable: true,
        value() {
          throw new Error(`${key} was called`)
        },
      })
    }
    similarity = diceCoefficient(bigramTextOf(`Configure Auth${'x'.repeat(5000)}`), bigramTextOf('configure authentication'))
  } finally {
    replaced.forEach(([owner, key], i) => Object.defineProperty(owner, key, originals[i]!))
  }
  expect(similarity).toBeCloseTo(reference(`Configure Auth${'x'.repeat(5000)}`, 'configure authentication'), 12)
})
