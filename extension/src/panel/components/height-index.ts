/**
 * Row heights of a virtual list, addressed by absolute row index, with prefix sums in O(log n)
 * (a Fenwick tree). Rows append at the end and are dropped from the front, matching the store's
 * views; a measured row updates in O(log n).
 */
export class HeightIndex {
  private tree = new Float64Array(1024 + 1)
  private sizes = new Float64Array(1024)
  /** Absolute index of slot 0, the slots in use, and the dropped slots at the front (size 0). */
  private origin = 0
  private length = 0
  private dead = 0

  constructor(origin = 0) {
    this.origin = origin
  }

  /** First live row. */
  get start(): number {
    return this.origin + this.dead
  }

  /** One past the last row. */
  get end(): number {
    return this.origin + this.length
  }

  /** Appends many rows at once: O(rows) rather than O(rows log n) when the index is empty. */
  pushAll(sizes: ArrayLike<number>): void {
    this.pushEach(sizes.length, (i) => sizes[i]!)
  }

  /**
   * Appends `count` rows, the i-th `sizeOf(i)` high. Takes sizes from a function rather than an
   * array so that a first render of a long log allocates no throwaway copy of every height.
   */
  pushEach(count: number, sizeOf: (i: number) => number): void {
    if (this.length > 0 || count < 64) {
      for (let i = 0; i < count; i++) this.push(sizeOf(i))
      return
    }
    const sizes = new Float64Array(withHeadroom(count))
    for (let i = 0; i < count; i++) sizes[i] = sizeOf(i)
    this.adopt(sizes, count)
  }

  push(size: number): void {
    if (this.length === this.sizes.length) this.rebuild(this.dead, withHeadroom(this.length - this.dead))
    const slot = this.length++
    this.sizes[slot] = size
    // The new node covers (k - lowbit(k), k]: its own size plus the nodes already summed below it.
    const k = slot + 1
    this.tree[k] = size + this.prefix(k - 1) - this.prefix(k - (k & -k))
  }

  size(row: number): number {
    return this.sizes[row - this.origin] ?? 0
  }

  set(row: number, size: number): void {
    const slot = row - this.origin
    if (slot < this.dead || slot >= this.length) return
    const delta = size - this.sizes[slot]!
    this.sizes[slot] = size
    for (let k = slot + 1; k <= this.length; k += k & -k) this.tree[k]! += delta
  }

  /** Drops every row before `row`; returns the height that went away. */
  dropBefore(row: number): number {
    let removed = 0
    const stop = Math.min(row - this.origin, this.length)
    for (let slot = this.dead; slot < stop; slot++) {
      removed += this.sizes[slot]!
      this.set(slot + this.origin, 0)
    }
    this.dead = Math.max(this.dead, stop)
    if (this.dead > 1024 && this.dead * 2 > this.length) this.rebuild(this.dead, this.sizes.length)
    return removed
  }

  /** Total height of the rows before `row`. */
  offset(row: number): number {
    return this.prefix(Math.max(0, Math.min(row - this.origin, this.length)))
  }

  total(): number {
    return this.prefix(this.length)
  }

  /** The row at vertical position `y`, clamped to the live rows (undefined when there are none). */
  rowAt(y: number): number | undefined {
    if (this.length === this.dead) return undefined
    let slot = 0
    let rest = y
    for (let step = highBit(this.length); step > 0; step >>= 1) {
      const next = slot + step
      if (next <= this.length && this.tree[next]! <= rest) {
        slot = next
        rest -= this.tree[next]!
      }
    }
    return this.origin + Math.min(Math.max(slot, this.dead), this.length - 1)
  }

  private prefix(count: number): number {
    let sum = 0
    for (let k = count; k > 0; k -= k & -k) sum += this.tree[k]!
    return sum
  }

  /** Moves the live slots to the front of arrays of `capacity` (at least the live count) and rebuilds the tree. */
  private rebuild(from: number, capacity: number): void {
    const live = this.sizes.subarray(from, this.length)
    const sizes = new Float64Array(Math.max(capacity, live.length, 1024))
    sizes.set(live)
    this.origin += from
    this.adopt(sizes, live.length)
  }

  /** Takes `sizes` (its first `length` slots in use) as the live rows and builds the tree in O(n). */
  private adopt(sizes: Float64Array<ArrayBuffer>, length: number): void {
    const tree = new Float64Array(sizes.length + 1)
    for (let k = 1; k <= length; k++) {
      tree[k]! += sizes[k - 1]!
      const parent = k + (k & -k)
      if (parent <= length) tree[parent]! += tree[k]!
    }
    this.sizes = sizes
    this.tree = tree
    this.length = length
    this.dead = 0
  }
}

/**
 * Room for half as many rows again: a live log keeps appending, and growing copies every height.
 * Half rather than double keeps a first render of a long log from holding twice the memory it needs.
 */
function withHeadroom(rows: number): number {
  return Math.max(1024, rows + (rows >> 1))
}

function highBit(n: number): number {
  let bit = 1
  while (bit * 2 <= n) bit *= 2
  return bit
}
