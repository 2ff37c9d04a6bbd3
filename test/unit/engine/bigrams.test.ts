// The near-repeat similarity (engine/detectors/bigrams.ts) against a plain reference: the
// Sørensen–Dice coefficient of two bigram multisets counted in a Map, over generated texts.
import { expect, it, vi } from 'vitest'
import { comparedText, diceCoefficient } from '../../../engine/detectors/bigrams.ts'
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

/** The engine's coefficient for two arguments texts, each made the compared text first. */
const dice = (a: string, b: string) => diceCoefficient(comparedText(a), comparedText(b))

it('decides as the plain reference over generated pairs, repeated and wide characters included', () => {
  const rng = random(29)
  // Few letters, so bigrams repeat; a surrogate pair and a letter above 255 exercise every radix pass.
  const alphabet = ['a', 'b', 'A', 'ab', '\u{1F600}', 'é', 'ǅ', '"', '{']
  const textOf = () => Array.from({ length: rng.int(60) }, () => alphabet[rng.int(alphabet.length)]).join('')
  for (let i = 0; i < 400; i++) {
    const a = textOf()
    const b = rng.chance(0.3) ? a + textOf() : textOf()
    expect(dice(a, b)).toBeCloseTo(reference(a, b), 12)
  }
})

it('decides as the plain reference for near repeats: a common head and tail around middles short and long', () => {
  // The head and tail are counted, not sorted (bigrams.ts): cut at every length, overlapping in
  // the shorter text, and around middles on both sides of the insertion sort's bound.
  const rng = random(26)
  const alphabet = ['a', 'b', 'B', 'c', '\u{1F600}', 'é', 'ǅ']
  const textOf = (length: number) => Array.from({ length }, () => alphabet[rng.int(alphabet.length)]).join('')
  for (let i = 0; i < 600; i++) {
    const head = textOf(rng.int(40))
    const tail = textOf(rng.int(40))
    const a = head + textOf(rng.int(rng.chance(0.5) ? 8 : 90)) + tail
    const b = head + textOf(rng.int(rng.chance(0.5) ? 8 : 90)) + tail
    expect(dice(a, b)).toBeCloseTo(reference(a, b), 12)
  }
  // A head that is the whole shorter text, and a tail that would overlap it.
  expect(dice('abab', 'ababab')).toBeCloseTo(reference('abab', 'ababab'), 12)
  expect(dice('aXa', 'aXaXa')).toBeCloseTo(reference('aXa', 'aXaXa'), 12)
})

it('decides as the plain reference for texts edited in many places, where blocks line up again after each edit', () => {
  // Blocks between edits are found by searching for a piece of one text in the other
  // (common-blocks.ts): edits that shift the rest, more edits than searches, and text that repeats
  // (so a piece is also found where the texts do not line up) must all leave the result exact.
  const rng = random(77)
  const pieces = ['alpha ', 'beta ', 'gamma ', 'delta ', 'Ω ', '\u{1F600}', '"x":1,']
  const textOf = (length: number) => Array.from({ length }, () => pieces[rng.int(pieces.length)]).join('')
  for (let i = 0; i < 300; i++) {
    const a = textOf(20 + rng.int(120))
    let b = a
    for (let edits = rng.int(12); edits > 0; edits--) {
      const at = rng.int(b.length + 1)
      const cut = rng.int(6)
      b = b.slice(0, at) + (rng.chance(0.7) ? textOf(rng.int(3)) : '') + b.slice(at + cut)
    }
    expect(dice(a, b)).toBeCloseTo(reference(a, b), 12)
  }
})

it('sorts middles of thousands of bigrams as the reference counts them, after middles of every size', () => {
  const rng = random(4)
  const alphabet = ['a', 'b', 'c', 'd', 'ā', '\u{1F600}']
  const textOf = (length: number) => Array.from({ length }, () => alphabet[rng.int(alphabet.length)]).join('')
  // Growing sizes: each comparison finds the working space left by the one before it.
  for (const length of [3, 40, 700, 3000, 5000, 50]) {
    const a = textOf(length)
    const b = textOf(length + rng.int(30))
    expect(dice(a, b)).toBeCloseTo(reference(a, b), 12)
  }
  // A wide letter only before the first bigram's second character: three passes, an odd number.
  const ascii = (length: number) => Array.from({ length }, () => 'abcd'[rng.int(4)]).join('')
  const [a, b] = [`ā${ascii(300)}`, `ǅ${ascii(300)}`]
  expect(dice(a, b)).toBeCloseTo(reference(a, b), 12)
})

it('makes room for the longer text of the first comparison, whichever side it is on', async () => {
  const rng = random(5)
  const long = Array.from({ length: 3000 }, () => 'abcdefgh'[rng.int(8)]).join('')
  for (const [a, b] of [
    ['ab', long],
    [long, 'ba'],
  ] as const) {
    // A fresh module each time: its working space has grown in no comparison before.
    vi.resetModules()
    const fresh = await import('../../../engine/detectors/bigrams.ts')
    expect(fresh.diceCoefficient(a, b)).toBeCloseTo(reference(a, b), 12)
  }
})

it('compares texts too short for a bigram by equality, after lower-casing', () => {
  expect(dice('A', 'a')).toBe(1)
  expect(dice('a', 'b')).toBe(0)
  expect(dice('', 'ab')).toBe(0)
})

it('reads only the first 4,096 characters', () => {
  const head = 'ab'.repeat(2048)
  expect(dice(`${head}xyz`, `${head}${'q'.repeat(9000)}`)).toBe(1)
  expect(comparedText('X'.repeat(10_000))).toBe('x'.repeat(4096))
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
    similarity = dice(`Configure Auth${'x'.repeat(5000)}`, 'configure authentication')
  } finally {
    replaced.forEach(([owner, key], i) => Object.defineProperty(owner, key, originals[i]!))
  }
  expect(similarity).toBeCloseTo(reference(`Configure Auth${'x'.repeat(5000)}`, 'configure authentication'), 12)
})
