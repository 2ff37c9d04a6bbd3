// The guard reads a watched body after the page has each chunk (docs/zero-code.md, "Read as the
// page reads it"): the network hands a fast stream over in few large chunks, and decoding one, splitting
// its lines and reading its events inside the page's read would delay the page by as much. So the
// passage (body-watcher.ts) gets a copy of each chunk in a later task of its own, posted on a
// private MessageChannel made with the built-ins body-natives.ts captured (a channel has no 4 ms
// clamp, as a timer has). Every step of every watched body (its opening, chunks, end, cut, fail)
// runs in the order the page's reading made it, and `flush` runs every step still queued at once:
// each entry that analyses a request calls it first, so the guard decides with all the page has
// read, as it did when it read in the page's read. A copy is held only until its step has run.
import { callFunction } from '../../../../engine/intrinsics.ts'
import type { BodyNatives, ChannelNatives } from './body-natives.ts'
import type { Passage } from './pass-through.ts'

export interface ReadingQueue {
  /** Runs `step` in a later task, after every step queued before it. */
  defer(step: () => void): void
  /** Runs every step still queued, now, in order. */
  flush(): void
}

interface Step {
  run: (() => void) | undefined
  next: Step | undefined
}

/** Steps run in a task posted on a channel made with `channel` at the first step. */
export function createReadingQueue(channel: ChannelNatives): ReadingQueue {
  // A list of its own (an array's push could reach a setter the page put on Array.prototype).
  let first: Step | undefined
  let last: Step | undefined
  let posted = false
  let sender: MessagePort | undefined

  function flush(): void {
    while (first !== undefined) {
      const step = first
      first = step.next
      if (first === undefined) last = undefined
      const run = step.run!
      step.run = undefined
      try {
        run()
      } catch {
        // A passage never throws; a step that does loses its own reading, never the others'.
      }
    }
  }

  function post(): void {
    if (sender === undefined) {
      const made = new channel.NativeMessageChannel()
      callFunction(channel.setOnmessage, callFunction(channel.port1, made, []), [
        () => {
          posted = false
          flush()
        },
      ])
      sender = callFunction(channel.port2, made, []) as MessagePort
    }
    callFunction(channel.postMessage, sender, [null])
    posted = true
  }

  return {
    defer(run) {
      const step: Step = { run, next: undefined }
      if (last === undefined) first = step
      else last.next = step
      last = step
      if (!posted) post()
    },
    flush,
  }
}

/**
 * The passage `open` makes, opened and fed in steps of `queue`: each chunk is copied before the
 * page's stream takes its buffer over. Never throws, as a passage must not.
 */
export function laterPassage(natives: Pick<BodyNatives, 'NativeUint8Array'>, queue: ReadingQueue, open: () => Passage): Passage {
  const { NativeUint8Array } = natives
  let passage: Passage | undefined
  let failed = false
  const step = (run: (opened: Passage) => void): void => {
    if (failed) return
    try {
      queue.defer(() => run((passage ??= open())))
    } catch {
      // No task to post to: the guard reads no more of this body, the page reads on.
      failed = true
    }
  }
  return {
    chunk(bytes) {
      if (failed) return
      let copy: Uint8Array
      try {
        // The constructor copies a typed array's bytes without looking up the page's `Symbol.species`.
        copy = new NativeUint8Array(bytes)
      } catch (error) {
        step((opened) => opened.fail(error))
        failed = true
        return
      }
      step((opened) => opened.chunk(copy))
    },
    end: () => step((opened) => opened.end()),
    cut: () => step((opened) => opened.cut()),
    fail: (error) => step((opened) => opened.fail(error)),
  }
}
