import { textBytes } from './retained-bytes.ts'

/** Each frame's page-load count (agents are keyed by it, so a reloaded frame's ids start afresh) and address. */
export interface FrameState {
  pageLoad: number
  /** The relay's own address for the frame, never the page-load event's: the page writes that one. */
  url: string
  /** The frame's origin as the browser named it (the batch's tag); unknown for an imported session. */
  origin?: string
}

const frameBytes = (frame: FrameState): number => textBytes(frame.url) + (frame.origin === undefined ? 0 : textBytes(frame.origin))

/**
 * The frames the panel has heard from, in first-heard order, with what their addresses cost as the
 * panel's byte budget counts it. A subframe that holds no agent only keeps its page-load count for
 * agents it may still announce, so it is the first thing the budget lets go: should it announce
 * one later, its count starts again at 0, and no agent of its earlier loads is left to mix with.
 */
export class FrameTable {
  private readonly frames = new Map<number, FrameState>()
  private held = 0

  get bytes(): number {
    return this.held
  }

  get(frameId: number): FrameState | undefined {
    return this.frames.get(frameId)
  }

  /** The frame's state, made (at page load 0) when first heard of. */
  of(frameId: number, url: string, origin?: string): FrameState {
    let frame = this.frames.get(frameId)
    if (!frame) this.set(frameId, (frame = origin === undefined ? { pageLoad: 0, url } : { pageLoad: 0, url, origin }))
    return frame
  }

  set(frameId: number, frame: FrameState): void {
    this.forget(frameId)
    this.frames.set(frameId, frame)
    this.held += frameBytes(frame)
  }

  /** A new address for a frame already known (a new document in it). */
  moved(frame: FrameState, url: string, origin?: string): void {
    this.held -= frameBytes(frame)
    frame.url = url
    if (origin !== undefined) frame.origin = origin
    this.held += frameBytes(frame)
  }

  forget(frameId: number): void {
    const frame = this.frames.get(frameId)
    if (!frame) return
    this.held -= frameBytes(frame)
    this.frames.delete(frameId)
  }

  clear(): void {
    this.frames.clear()
    this.held = 0
  }

  /** Forgets subframes that hold no agent, the first heard of first, while `more` says so. */
  forgetIdle(holdsAgents: (frameId: number) => boolean, more: () => boolean): void {
    for (const frameId of this.frames.keys()) {
      if (!more()) return
      if (frameId !== 0 && !holdsAgents(frameId)) this.forget(frameId)
    }
  }

  entries(): IterableIterator<[number, FrameState]> {
    return this.frames.entries()
  }
}
