// The guard reads a watched body after the page has each chunk (docs/zero-code.md, "Read as the
// page reads it"): the network hands a fast stream over in few large chunks, and decoding one, splitting
// its lines and reading its events inside the page's read would delay the page by as much. So the
// passage (body-watcher.ts) gets a copy of each chunk in a later task of its own, posted on a
// private MessageChannel made with the built-ins body-natives.ts captured (a channel has no 4 ms
// clamp, as a timer has). A large chunk is read in pieces of 256 KB, a task for each: the page's next chunk,
// arrived meanwhile, waits for the piece being read, not for the whole of a megabyte. Every step
// of every watched body (its opening, pieces, end, cut, fail) runs in the order the page's reading
// made it, and `flush` runs every step still queued at once: each entry that analyses a request
// calls it first, so the guard decides with all the page has read, as it did when it read in the
// page's read. A copy is held only until its steps have run, in a buffer the queue reuses
// (chunk-copies.ts).
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { BodyNatives, ChannelNatives } from './body-natives.ts'
import { MAX_DECODED_BYTES } from './body-watcher.ts'
import { createChunkCopies } from './chunk-copies.ts'
import { eachPiece, type PieceNatives } from './chunk-pieces.ts'
import type { Passage } from './pass-through.ts'

export interface ReadingQueue {
  /** Runs `step` in a later task, after every step queued before it; `bytes`: how many bytes of a body it reads. */
  defer(step: () => void, bytes?: number): void
  /** Runs every step still queued, now, in order. */
  flush(): void
  /** A copy of a chunk, unchanged until the steps queued after it have run. Throws as the chunk's own copy would. */
  copy(bytes: Uint8Array): Uint8Array
}

/**
 * The most bytes of a body one task reads once it has read some: then the page's tasks may run.
 * Smaller, the tasks themselves cost the page more than they spare it (bench/ui-stream-page.bench.ts).
 */
export const TASK_BYTES = 4 * MAX_DECODED_BYTES

interface Step {
  run: (() => void) | undefined
  bytes: number
  next: Step | undefined
}

type CopyNatives = Pick<BodyNatives, 'NativeUint8Array' | 'setBytes' | 'byteLength' | 'buffer'>

/** Steps run in tasks posted on a channel made with `channel` at the first step. */
export function createReadingQueue(channel: ChannelNatives, natives: CopyNatives): ReadingQueue {
  // A list of its own (an array's push could reach a setter the page put on Array.prototype).
  let first: Step | undefined
  let last: Step | undefined
  let posted = false
  let sender: MessagePort | undefined

  /** Runs the first step; the bytes it read. */
  function runFirst(): number {
    const step = first!
    first = step.next
    if (first === undefined) last = undefined
    const run = step.run!
    step.run = undefined
    try {
      run()
    } catch {
      // A passage never throws; a step that does loses its own reading, never the others'.
    }
    return step.bytes
  }

  function flush(): void {
    while (first !== undefined) runFirst()
  }

  /** One task's share: steps until some `TASK_BYTES` are read, and a task posted for the rest. */
  function some(): void {
    let read = 0
    while (first !== undefined && read < TASK_BYTES) read += runFirst()
    if (first !== undefined) post()
  }

  function post(): void {
    if (sender === undefined) {
      const made = new channel.NativeMessageChannel()
      callFunction(channel.setOnmessage, callFunction(channel.port1, made, []), [
        () => {
          posted = false
          some()
        },
      ])
      sender = callFunction(channel.port2, made, []) as MessagePort
    }
    callFunction(channel.postMessage, sender, [null])
    posted = true
  }

  return {
    defer(run, bytes = 0) {
      const step: Step = { run, bytes, next: undefined }
      if (last === undefined) first = step
      else last.next = step
      last = step
      if (!posted) post()
    },
    flush,
    copy: createChunkCopies(natives, () => first === undefined).copy,
  }
}

/**
 * The passage `open` makes, opened and fed in steps of `queue`: each chunk is copied before the
 * page's stream takes its buffer over, and read in pieces of at most `TASK_BYTES`. Never throws,
 * as a passage must not.
 */
export function laterPassage(natives: PieceNatives, queue: ReadingQueue, open: () => Passage): Passage {
  let passage: Passage | undefined
  let failed = false
  const step = (run: (opened: Passage) => void, bytes = 0): void => {
    if (failed) return
    try {
      queue.defer(() => run((passage ??= open())), bytes)
    } catch {
      // No task to post to: the guard reads no more of this body, the page reads on.
      failed = true
    }
  }
  /** A step for a piece of a copy. */
  const readPiece = (piece: Uint8Array, length: number): boolean => {
    step((opened) => opened.chunk(piece), length)
    return true
  }
  return {
    chunk(bytes) {
      if (failed) return
      let copy: Uint8Array
      try {
        copy = queue.copy(bytes)
      } catch (error) {
        step((opened) => opened.fail(error))
        failed = true
        return
      }
      eachPiece(natives, copy, TASK_BYTES, readPiece)
    },
    end: () => step((opened) => opened.end()),
    cut: () => step((opened) => opened.cut()),
    fail: (error) => step((opened) => opened.fail(error)),
  }
}
