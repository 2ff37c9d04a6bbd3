// The parts two argument texts share, found by native comparisons rather than character by
// character: near repeats (docs/detectors.md, "Near repeats") are one text with a few edits, so
// most of it lies in a common head, a common tail, and a few blocks between edits. The bigrams
// inside such a block are in both texts' multisets; only the rest need sorting (bigrams.ts).
// Any blocks that are equal in both texts, in order and apart, give the exact coefficient: the
// search below only decides how little is left to sort, never the result.
import { NativeUint32Array, stringIndexOf, stringSlice } from '../intrinsics.ts'

/** At most this many searches for a block between the head and the tail: each may read the text once. */
const MAX_PROBES = 8
/** A probe's length: long enough to be found only where the texts line up again. */
const PROBE = 16
/** Where the first probe after a difference starts: past the edit, for an edit of a word or two. */
const PAST_EDIT = 12
/** The first block two texts are compared by: most arguments differ within their first few characters. */
const FIRST_BLOCK = 16

/** Blocks equal in two texts, in order: block `k` is `length[k]` characters from `aStart[k]` in one and `bStart[k]` in the other. */
export interface Blocks {
  count: number
  readonly aStart: Uint32Array
  readonly bStart: Uint32Array
  readonly length: Uint32Array
}

export const emptyBlocks = (): Blocks => ({
  count: 0,
  aStart: new NativeUint32Array(MAX_PROBES + 2),
  bStart: new NativeUint32Array(MAX_PROBES + 2),
  length: new NativeUint32Array(MAX_PROBES + 2),
})

/** Writes into `blocks` the common head of `a` and `b`, blocks found between edits, and their common tail. */
export function findCommonBlocks(a: string, b: string, blocks: Blocks): void {
  blocks.count = 0
  // Head and tail do not overlap in the shorter text.
  const shorter = lesser(a.length, b.length)
  const head = commonLength(a, 0, b, 0, shorter)
  const tail = commonLength(a, a.length, b, b.length, head - shorter)
  add(blocks, 0, 0, head)
  const aEnd = a.length - tail
  const bEnd = b.length - tail
  // After each difference, a probe of `a` a little past it is looked for in `b`; where found, the
  // block around it is grown both ways, and the next difference is where it ends.
  let i = head
  let j = head
  let probe = i + PAST_EDIT
  for (let probes = 0; probes < MAX_PROBES && probe + PROBE <= aEnd; probes++) {
    const found = stringIndexOf(b, stringSlice(a, probe, probe + PROBE), j)
    if (found === -1 || found + PROBE > bEnd) {
      probe += PROBE
      continue
    }
    const before = commonLength(a, probe, b, found, -lesser(probe - i, found - j))
    const after = commonLength(a, probe, b, found, lesser(aEnd - probe, bEnd - found))
    add(blocks, probe - before, found - before, before + after)
    i = probe + after
    j = found + after
    probe = i + PAST_EDIT
  }
  add(blocks, aEnd, bEnd, tail)
}

function add(blocks: Blocks, aStart: number, bStart: number, length: number): void {
  if (length === 0) return
  const k = blocks.count++
  blocks.aStart[k] = aStart
  blocks.bStart[k] = bStart
  blocks.length[k] = length
}

/** No Math.min: a page may replace it. */
function lesser(x: number, y: number): number {
  if (y < x) return y
  return x
}

/**
 * How many characters `a` from `aAt` and `b` from `bAt` have in common, forward (`limit` > 0)
 * or backward (`limit` < 0, reading before `aAt` and `bAt`), at most `|limit|`. Blocks of
 * doubling length are compared as slices (one native comparison each) until one differs; that
 * block is halved down to the first difference. Each comparison costs its block's length, and
 * together they are at most a few times the common part: linear time, with few calls.
 */
export function commonLength(a: string, aAt: number, b: string, bAt: number, limit: number): number {
  const forward = limit > 0
  const most = forward ? limit : -limit
  const same = (from: number, to: number) =>
    forward ? stringSlice(a, aAt + from, aAt + to) === stringSlice(b, bAt + from, bAt + to) : stringSlice(a, aAt - to, aAt - from) === stringSlice(b, bAt - to, bAt - from)
  let common = 0
  let block = FIRST_BLOCK
  while (common + block <= most && same(common, common + block)) {
    common += block
    block *= 2
  }
  // The answer is now below `common + block`: halve the block down to it.
  while (block > 1) {
    block >>= 1
    if (common + block <= most && same(common, common + block)) common += block
  }
  return common
}
