// The similarity of two argument texts for near repeats: the Sørensen–Dice coefficient of the
// multisets of their character bigrams (docs/detectors.md, "Near repeats"). Near repeats differ
// slightly, so most of two texts is a common head and a common tail: their bigrams are in both
// multisets and are only counted. The bigrams of the two middles left are sorted by a radix sort
// (linear time) and intersected by one merge walk, so comparing two calls costs linear time in
// their texts and, for texts that differ in a few places, little more than reading them once.
// Typed arrays and captured built-ins only: a page may replace the others.
import { NativeUint32Array, stringCharCodeAt, stringSlice, stringToLowerCase } from '../intrinsics.ts'

/** Arguments longer than this compare by their first this many characters. */
export const COMPARED_CHARS = 4096

/** A text as near repeats compare it: cut to its first `COMPARED_CHARS` characters, and lower-cased. */
export const comparedText = (canonical: string): string => stringToLowerCase(canonical.length > COMPARED_CHARS ? stringSlice(canonical, 0, COMPARED_CHARS) : canonical)

/** Below this many bigrams a middle is sorted by insertion: the radix sort's passes cost more. */
const SHORT_MIDDLE = 32

/**
 * Working space for the middles' bigrams, kept between comparisons so a call allocates nothing
 * once it has grown: the engine runs one comparison at a time.
 */
let left: Uint32Array = new NativeUint32Array(64)
let right: Uint32Array = new NativeUint32Array(64)
let spare: Uint32Array = new NativeUint32Array(64)
const starts = new NativeUint32Array(256)

/** 2 × |A ∩ B| / (|A| + |B|) over the bigram multisets of two compared texts; texts too short for a bigram are alike only when equal. */
export function diceCoefficient(a: string, b: string): number {
  const total = bigramCount(a) + bigramCount(b)
  if (total === 0) return a === b ? 1 : 0
  // The common head and tail, not overlapping in the shorter text. No Math.min: a page may replace it.
  let shorter = a.length
  if (b.length < shorter) shorter = b.length
  let head = 0
  while (head < shorter && stringCharCodeAt(a, head) === stringCharCodeAt(b, head)) head++
  let tail = 0
  while (tail < shorter - head && stringCharCodeAt(a, a.length - 1 - tail) === stringCharCodeAt(b, b.length - 1 - tail)) tail++
  // A bigram at i spans i and i + 1: those wholly in the head (i < head - 1) or wholly in the tail
  // are in both multisets. The middles are the bigrams of each text between them.
  const skipHead = head > 0 ? head - 1 : 0
  const skipTail = tail > 0 ? tail - 1 : 0
  const x = bigramCount(a) - skipHead - skipTail
  const y = bigramCount(b) - skipHead - skipTail
  if (x > spare.length) grow(x)
  if (y > spare.length) grow(y)
  middleBigrams(a, skipHead, x, 0)
  middleBigrams(b, skipHead, y, 1)
  return (2 * (skipHead + skipTail + commonSorted(left, x, right, y))) / total
}

const bigramCount = (text: string): number => (text.length < 2 ? 0 : text.length - 1)

/** Writes the `n` bigrams of `text` from `skipHead` on, sorted, into `left` (side 0) or `right`. */
function middleBigrams(text: string, skipHead: number, n: number, side: 0 | 1): void {
  const codes = side === 0 ? left : right
  for (let i = 0; i < n; i++) codes[i] = ((stringCharCodeAt(text, skipHead + i) << 16) | stringCharCodeAt(text, skipHead + i + 1)) >>> 0
  if (n < SHORT_MIDDLE) insertionSort(codes, n)
  else radixSort(codes, n, side)
}

/** Room for `n` bigrams a side; the lists' contents go, so only before either is written. */
function grow(n: number): void {
  let size = spare.length
  while (size < n) size *= 2
  left = new NativeUint32Array(size)
  right = new NativeUint32Array(size)
  spare = new NativeUint32Array(size)
}

/** Bigrams both sorted lists hold, counted with their repeats. */
function commonSorted(x: Uint32Array, xLength: number, y: Uint32Array, yLength: number): number {
  let common = 0
  let i = 0
  let j = 0
  while (i < xLength && j < yLength) {
    if (x[i]! === y[j]!) {
      common++
      i++
      j++
    } else if (x[i]! < y[j]!) i++
    else j++
  }
  return common
}

/** Sorts the first `n` codes in place; only for fewer than `SHORT_MIDDLE`, so its time is bounded. */
function insertionSort(codes: Uint32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const code = codes[i]!
    let j = i - 1
    while (j >= 0 && codes[j]! > code) {
      codes[j + 1] = codes[j]!
      j--
    }
    codes[j + 1] = code
  }
}

/**
 * Sorts the first `n` codes of `left` (side 0) or `right` by passes of eight bits, least
 * significant first. A byte that every code shares needs no pass: for text below U+0100 (most
 * arguments), two of the four.
 */
function radixSort(codes: Uint32Array, n: number, side: 0 | 1): void {
  let differing = 0
  for (let i = 1; i < n; i++) differing |= codes[i]! ^ codes[0]!
  let from = codes
  let to = spare
  for (let shift = 0; shift < 32; shift += 8) {
    if (((differing >>> shift) & 255) === 0) continue
    for (let digit = 0; digit < 256; digit++) starts[digit] = 0
    for (let i = 0; i < n; i++) starts[(from[i]! >>> shift) & 255]!++
    let position = 0
    for (let digit = 0; digit < 256; digit++) {
      const count = starts[digit]!
      starts[digit] = position
      position += count
    }
    for (let i = 0; i < n; i++) to[starts[(from[i]! >>> shift) & 255]!++] = from[i]!
    const sorted = to
    to = from
    from = sorted
  }
  // After an odd number of passes the sorted codes are in the spare: it becomes this side's list.
  if (from !== codes) {
    if (side === 0) left = from
    else right = from
    spare = codes
  }
}
