/** One row of a browser bench table: a median ratio over rounds taken in turns, and its spread. */
export interface SpreadRow {
  readonly case: string
  readonly baseline: string
  readonly measured: string
  readonly ratio: string
  /** The middle half of the per-round ratios, and how many rounds there were. */
  readonly spread: string
  readonly target: string
  readonly met: string
}
