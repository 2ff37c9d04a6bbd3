// The differences between two argument texts, for a near repeat's two calls side by side
// (docs/panel.md, "What triggered a reminder"). Texts are cut into words, runs of spaces and single
// other characters, so `"auth configuration"` against `"configure auth"` marks whole words. The
// common head and tail are set aside first; the middle is compared by Myers' O((N+M)·D) method,
// with D capped so two texts that share little cost linear time: past the cap, the whole middle
// is marked as changed.

/** A stretch of one side's text: changed (marked) or shared with the other side. */
export interface DiffPart {
  readonly text: string
  readonly changed: boolean
}

export interface SideBySide {
  readonly before: readonly DiffPart[]
  readonly after: readonly DiffPart[]
}

const MAX_EDITS = 200

const tokens = (text: string): string[] => text.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? []

export function diffTexts(before: string, after: string, maxEdits = MAX_EDITS): SideBySide {
  const a = tokens(before)
  const b = tokens(after)
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let endA = a.length
  let endB = b.length
  while (endA > head && endB > head && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const changedA = new Uint8Array(a.length)
  const changedB = new Uint8Array(b.length)
  if (!markEdits(a.slice(head, endA), b.slice(head, endB), changedA.subarray(head, endA), changedB.subarray(head, endB), maxEdits)) {
    changedA.fill(1, head, endA)
    changedB.fill(1, head, endB)
  }
  return { before: parts(a, changedA), after: parts(b, changedB) }
}

/** Marks the tokens a shortest edit script removes from `a` and adds from `b`; false past `maxEdits`. */
function markEdits(a: readonly string[], b: readonly string[], removed: Uint8Array, added: Uint8Array, maxEdits: number): boolean {
  const n = a.length
  const m = b.length
  const offset = n + m + 1
  const v = new Int32Array(2 * offset + 1)
  const trace: Int32Array[] = []
  for (let d = 0; d <= Math.min(n + m, maxEdits); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2))
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) {
        backtrack(trace, n, m, removed, added)
        return true
      }
    }
  }
  return false
}

/** Walks the saved frontiers back from the end, marking each step off the diagonal. */
function backtrack(trace: readonly Int32Array[], n: number, m: number, removed: Uint8Array, added: Uint8Array): void {
  let x = n
  let y = m
  for (let d = trace.length - 1; d > 0; d--) {
    // trace[d] holds diagonals -d-1..d+1 of the frontier before step d.
    const at = (k: number) => trace[d]![k + d + 1]!
    const k = x - y
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const previousX = at(previousK)
    const previousY = previousX - previousK
    // From the end of step d-1's diagonal, one step down (a token of b added) or right (one of a
    // removed), then along the diagonal of tokens both share, to (x, y).
    if (previousK === k + 1) added[previousY] = 1
    else removed[previousX] = 1
    x = previousX
    y = previousY
  }
}

function parts(tokens: readonly string[], changed: Uint8Array): DiffPart[] {
  const out: DiffPart[] = []
  let text = ''
  for (let i = 0; i < tokens.length; i++) {
    const flag = changed[i] === 1
    if (i > 0 && flag !== (changed[i - 1] === 1)) {
      out.push({ text, changed: changed[i - 1] === 1 })
      text = ''
    }
    text += tokens[i]
  }
  if (text !== '') out.push({ text, changed: changed[tokens.length - 1] === 1 })
  return out
}
