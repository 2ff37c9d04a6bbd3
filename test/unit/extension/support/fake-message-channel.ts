// A MessageChannel as a browser makes one, for happy-dom windows (which have none): each message is
// a structured clone, delivered in a later task (a timer, so fake timers drive it too) to the other
// port's `onmessage`; a closed port neither sends nor receives.
export class FakeMessagePort {
  onmessage: ((event: { data: unknown }) => void) | null = null
  closed = false
  constructor(private readonly other: () => FakeMessagePort) {}
  postMessage(data: unknown): void {
    if (this.closed) return
    const copy = structuredClone(data)
    const to = this.other()
    setTimeout(() => to.closed || to.onmessage?.({ data: copy }), 0)
  }
  close(): void {
    this.closed = true
  }
}

export class FakeMessageChannel {
  /** Every channel made, in order. */
  static readonly made: FakeMessageChannel[] = []
  constructor() {
    FakeMessageChannel.made.push(this)
  }
  readonly port1: FakeMessagePort = new FakeMessagePort(() => this.port2)
  readonly port2: FakeMessagePort = new FakeMessagePort(() => this.port1)
}
