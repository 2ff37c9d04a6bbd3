// The similarity of two argument texts for near repeats: the Sørensen–Dice coefficient of the
// multisets of their character bigrams (docs/detectors.md, "Near repeats"). Each text's bigrams
// are sorted once by a radix sort (four passes of eight bits: linear time) and two sorted lists
// are intersected by one merge walk, so comparing two calls costs linear time in their texts.
// Typed arrays and captured built-ins only: a page may replace the others.
import { NativeUint32Array, stringCharCodeAt, stringSlice, stringToLowerCase } from '../intrinsics.ts'

/** Arguments longer than this compare by their first this many characters. */
export const COMPARED_CHARS = 4096

/** A text as near repeats compare it: lower-cased, cut, and its bigrams sorted. */
export interface BigramText {
  readonly text: string
  readonly bigrams: Uint32Array
}

export function bigramTextOf(canonical: string): BigramText {
  const text = stringToLowerCase(canonical.length > COMPARED_CHARS ? stringSlice(canonical, 0, COMPARED_CHARS) : canonical)
  return { text, bigrams: sortedBigrams(text) }
}

/** 2 × |A ∩ B| / (|A| + |B|) over the bigram multisets; two texts too short for a bigram are alike only when equal. */
export function diceCoefficient(a: BigramText, b: BigramText): number {
  const x = a.bigrams
  const y = b.bigrams
  if (x.length + y.length === 0) return a.text === b.text ? 1 : 0
  let common = 0
  let i = 0
  let j = 0
  while (i < x.length && j < y.length) {
    if (x[i]! === y[j]!) {
      common++
      i++
      j++
    } else if (x[i]! < y[j]!) i++
    else j++
  }
  return (2 * common) / (x.length + y.length)
}

function sortedBigrams(text: string): Uint32Array {
  // No Math.max: a page may replace it.
  const n = text.length < 2 ? 0 : text.length - 1
  let codes = new NativeUint32Array(n)
  for (let i = 0; i < n; i++) codes[i] = ((stringCharCodeAt(text, i) << 16) | stringCharCodeAt(text, i + 1)) >>> 0
  let spare = new NativeUint32Array(codes.length)
  const starts = new NativeUint32Array(256)
  for (let shift = 0; shift < 32; shift += 8) {
    for (let digit = 0; digit < 256; digit++) starts[digit] = 0
    for (let i = 0; i < codes.length; i++) starts[(codes[i]! >>> shift) & 255]!++
    let position = 0
    for (let digit = 0; digit < 256; digit++) {
      const count = starts[digit]!
      starts[digit] = position
      position += count
    }
    for (let i = 0; i < codes.length; i++) spare[starts[(codes[i]! >>> shift) & 255]!++] = codes[i]!
    const sorted = spare
    spare = codes
    codes = sorted
  }
  return codes
}
