// The similarity of two argument texts for near repeats: the Sørensen–Dice coefficient of the
// multisets of their character bigrams (docs/detectors.md, "Near repeats"). Near repeats differ
// slightly, so most of two texts lies in blocks they share (common-blocks.ts): the bigrams inside
// those are in both multisets and are only counted. The bigrams left are sorted by a radix sort
// (linear time) and intersected by one merge walk, so comparing two calls costs linear time in
// their texts and, for texts that differ in a few places, little more than reading them once.
// Typed arrays and captured built-ins only: a page may replace the others.
import { NativeUint32Array, stringCharCodeAt, stringSlice, stringToLowerCase } from '../intrinsics.ts'
import { emptyBlocks, findCommonBlocks } from './common-blocks.ts'

/** Arguments longer than this compare by their first this many characters. */
export const COMPARED_CHARS = 4096

/** A text as near repeats compare it: cut to its first `COMPARED_CHARS` characters, and lower-cased. */
export const comparedText = (canonical: string): string => stringToLowerCase(canonical.length > COMPARED_CHARS ? stringSlice(canonical, 0, COMPARED_CHARS) : canonical)

/** Below this many bigrams a list is sorted by insertion: the radix sort's passes cost more. */
const SHORT_LIST = 32

/**
 * Working space for the bigrams left outside the blocks, kept between comparisons so a call allocates nothing
 * once it has grown: the engine runs one comparison at a time.
 */
let left: Uint32Array = new NativeUint32Array(64)
let right: Uint32Array = new NativeUint32Array(64)
let spare: Uint32Array = new NativeUint32Array(64)
const starts = new NativeUint32Array(256)

/** The blocks two texts share, kept between comparisons like the working space above. */
const blocks = emptyBlocks()

/** 2 × |A ∩ B| / (|A| + |B|) over the bigram multisets of two compared texts; texts too short for a bigram are alike only when equal. */
export function diceCoefficient(a: string, b: string): number {
  const total = bigramCount(a) + bigramCount(b)
  if (total === 0) return a === b ? 1 : 0
  findCommonBlocks(a, b, blocks)
  // A block of n characters holds n - 1 bigrams, the same in both texts.
  let shared = 0
  for (let k = 0; k < blocks.count; k++) shared += blocks.length[k]! - 1
  if (bigramCount(a) > spare.length) grow(bigramCount(a))
  if (bigramCount(b) > spare.length) grow(bigramCount(b))
  const x = otherBigrams(a, blocks.aStart, 0)
  const y = otherBigrams(b, blocks.bStart, 1)
  return (2 * (shared + commonSorted(left, x, right, y))) / total
}

const bigramCount = (text: string): number => (text.length < 2 ? 0 : text.length - 1)

/**
 * Writes the bigrams of `text` that lie in no block (`blockStarts` gives the blocks' starts in this
 * text), sorted, into `left` (side 0) or `right`; returns how many. A bigram at i spans i and
 * i + 1: a block from s of n characters holds those from s to s + n - 2.
 */
function otherBigrams(text: string, blockStarts: Uint32Array, side: 0 | 1): number {
  const codes = side === 0 ? left : right
  let n = 0
  let from = 0
  for (let k = 0; k <= blocks.count; k++) {
    const to = k < blocks.count ? blockStarts[k]! : text.length - 1
    for (let i = from; i < to; i++) codes[n++] = ((stringCharCodeAt(text, i) << 16) | stringCharCodeAt(text, i + 1)) >>> 0
    if (k < blocks.count) from = blockStarts[k]! + blocks.length[k]! - 1
  }
  if (n < SHORT_LIST) insertionSort(codes, n)
  else radixSort(codes, n, side)
  return n
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

/** Sorts the first `n` codes in place; only for fewer than `SHORT_LIST`, so its time is bounded. */
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
