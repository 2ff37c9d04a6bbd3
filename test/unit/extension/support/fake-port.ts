// An in-memory runtime.Port for the router and relay tests.
import type { RouterPort } from '../../../../extension/src/background/router.ts'

type Sender = RouterPort['sender']

export class FakePort implements RouterPort {
  readonly posted: unknown[] = []
  disconnected = false
  failPosts = false
  private readonly messageListeners: ((message: unknown) => void)[] = []
  private readonly disconnectListeners: (() => void)[] = []

  constructor(
    readonly name: string,
    readonly sender?: Sender,
  ) {}

  readonly onMessage = { addListener: (l: (message: unknown) => void) => void this.messageListeners.push(l) }
  readonly onDisconnect = { addListener: (l: () => void) => void this.disconnectListeners.push(l) }

  postMessage(message: unknown): void {
    if (this.failPosts || this.disconnected) throw new Error('Attempting to use a disconnected port object')
    // Ports carry JSON: what arrives is a copy.
    this.posted.push(JSON.parse(JSON.stringify(message)))
  }

  disconnect(): void {
    this.disconnected = true
  }

  /** The other end sends `message`. */
  receive(message: unknown): void {
    for (const l of this.messageListeners) l(message)
  }

  /** The other end goes away. */
  close(): void {
    this.disconnected = true
    for (const l of this.disconnectListeners) l()
  }

  take(): unknown[] {
    return this.posted.splice(0)
  }
}

/** A content port as the router sees it, whose relay numbers what it sends (`RelaySequence`). */
export class FakeContentPort extends FakePort {
  private seq = 0

  constructor(
    name: string,
    sender: Sender,
    readonly stream: string = crypto.randomUUID(),
  ) {
    super(name, sender)
  }

  /** The relay sends `report` with the next number of its stream; `resent` as a relay marks a message sent again. */
  report(report: object, resent = false): number {
    const seq = ++this.seq
    this.receive({ ...report, stream: this.stream, seq, ...(resent ? { resent: true } : {}) })
    return seq
  }

  /** The relay sends `seq` of its stream again, as it does after a port closed. */
  resend(report: object, seq: number): void {
    this.seq = Math.max(this.seq, seq)
    this.receive({ ...report, stream: this.stream, seq, resent: true })
  }
}
