/**
 * An append-only log that forgets from the front, addressed by absolute position: the n-th item
 * ever pushed keeps index n until it is dropped, so views and measured row heights keyed by
 * position stay valid while old items fall off. Push and shift are O(1) amortised.
 */
export class BoundedLog<T> {
  private items: T[] = []
  /** Index into `items` of the first live item. */
  private head = 0
  /** Absolute position of `items[0]`. */
  private base = 0

  /** Absolute position of the first live item. */
  get start(): number {
    return this.base + this.head
  }

  /** Absolute position one past the last item. */
  get end(): number {
    return this.base + this.items.length
  }

  get size(): number {
    return this.items.length - this.head
  }

  push(item: T): void {
    this.items.push(item)
  }

  /** The item at absolute position `n`, or undefined when it was dropped or not pushed yet. */
  at(n: number): T | undefined {
    return n < this.start || n >= this.end ? undefined : this.items[n - this.base]
  }

  first(): T | undefined {
    return this.size === 0 ? undefined : this.items[this.head]
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined
    const item = this.items[this.head]
    // A dropped event must not live on in the dead prefix until the next compaction (a reminder
    // can hold 65,536 characters). Numbers hold nothing and stay, keeping a number log unboxed.
    if (typeof item === 'object' || typeof item === 'string') (this.items as unknown[])[this.head] = undefined
    this.head += 1
    // Compact once the dead prefix outweighs the live part, keeping shifts amortised O(1).
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.base += this.head
      this.head = 0
    }
    return item
  }

  /** Drops live items from the front while `predicate` holds. */
  shiftWhile(predicate: (item: T) => boolean): void {
    while (this.size > 0 && predicate(this.items[this.head])) this.shift()
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i]
  }
}
