/** A guard fault reported by a frame: the page's tool call went on, the guard stepped aside. */
export interface FaultRecord {
  readonly frameId: number
  readonly at: number
  readonly message: string
}
