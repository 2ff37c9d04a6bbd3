import { textBytes } from './retained-bytes.ts'

/**
 * The tools of the calls the timeline holds, for the filter's tool list: a tool leaves with its
 * last call row. At most `maxTools` are listed (a hostile page can invent a tool a call); the
 * names cost what the panel's byte budget counts for them.
 */
export class ToolStats {
  private readonly counts = new Map<string, number>()
  private sorted: readonly string[] | undefined
  private held = 0

  constructor(private readonly maxTools: number) {}

  get bytes(): number {
    return this.held
  }

  /** A call row of `tool` came in. */
  add(tool: string): void {
    const count = this.counts.get(tool)
    if (count !== undefined) return void this.counts.set(tool, count + 1)
    if (this.counts.size >= this.maxTools) return
    this.counts.set(tool, 1)
    this.held += textBytes(tool)
    this.sorted = undefined
  }

  /** A call row of `tool` left. */
  remove(tool: string): void {
    const count = this.counts.get(tool)
    if (count === undefined) return
    if (count > 1) return void this.counts.set(tool, count - 1)
    this.counts.delete(tool)
    this.held -= textBytes(tool)
    this.sorted = undefined
  }

  /** The names, sorted. */
  names(): readonly string[] {
    this.sorted ??= [...this.counts.keys()].sort()
    return this.sorted
  }

  clear(): void {
    this.counts.clear()
    this.held = 0
    this.sorted = undefined
  }
}
