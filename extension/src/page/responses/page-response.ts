// The page keeps the very Response object the browser gave it: its status, headers, url,
// redirected, type and prototype are the browser's own (a Response built from a stream could not
// carry url, redirected or type). Only its body is read another way: `body`, `bodyUsed`, `text()`,
// `json()`, `arrayBuffer()`, `blob()`, `formData()`, `bytes()` and `clone()` become own properties
// of that one object, stand-ins printed as the prototype's members, which answer from a second
// Response over the pass-through stream (pass-through.ts): each is still the browser's own (its
// errors, its decoding, its blob type from the Content-Type) reading what passes through. They are
// not enumerable, as nothing of a native Response is its own: `Object.keys`, a spread and
// `JSON.stringify` see what they see without the extension. `Response.prototype` is left as it is,
// so every other response of the page is the browser's alone, its errors without a frame of ours.
// A clone is another Response of the browser's, watched the same way.
import { callFunction, NativeWeakMap, objectCreate, weakMapGet, weakMapSet } from '../../../../engine/intrinsics.ts'
import type { ShowAsNative } from '../native-look.ts'
import type { BodyNatives } from './body-natives.ts'
import { watchBody, type BodySink } from './body-watcher.ts'
import { laterPassage, type ReadingQueue } from './later-reading.ts'
import { passThrough } from './pass-through.ts'

export interface PageResponses {
  /**
   * Has the page read `response`'s body through the guard, shown to the sink `open` returns,
   * opened at the page's first read; false (and nothing changed) when it has no body.
   */
  adopt(response: Response, open: () => BodySink): boolean
}

interface Adopted {
  readonly original: Response
  readonly open: () => BodySink
  /** The Response over the pass-through, made when the page first reaches for the body. */
  reading: Response | undefined
}

type Native = (...args: unknown[]) => unknown

/**
 * Made with what body-natives.ts captured, at the same time; touches nothing of the page's. With a
 * `queue`, the guard reads each chunk in a later task (later-reading.ts); without, in the page's read.
 */
export function createPageResponses(natives: BodyNatives, showAsNative: ShowAsNative, queue: ReadingQueue | null = null): PageResponses {
  const { NativeProxy, NativeResponse, defineProperty, response: members, headersOf, headersGet, locked, getReader } = natives
  const adopted = new NativeWeakMap<object, Adopted>()

  function readingOf(state: Adopted): Response {
    if (state.reading) return state.reading
    const { original, open } = state
    const watching = () => watchBody(natives, open())
    const stream = passThrough(natives, () => callFunction(members.body, original, []) as ReadableStream<Uint8Array>, queue === null ? watching : () => laterPassage(natives, queue, watching))
    // Only the body's own members matter; `blob()` and `formData()` read its Content-Type.
    const init = objectCreate(null) as ResponseInit
    const type = callFunction(headersGet, callFunction(headersOf, original, []), ['content-type']) as string | null
    if (type !== null) {
      const headers = objectCreate(null) as Record<string, string>
      headers['content-type'] = type
      init.headers = headers
    }
    return (state.reading = new NativeResponse(stream, init))
  }

  /** A stand-in for the member `native`: `answer` on an adopted response, the member itself on anything else. */
  function standIn(native: Native, answer: (state: Adopted, native: Native, args: unknown[]) => unknown): Native {
    const handler = objectCreate(null) as ProxyHandler<Native>
    handler.apply = (fn: Native, self: unknown, args: unknown[]) => {
      const state = typeof self === 'object' && self !== null ? weakMapGet(adopted, self) : undefined
      return state ? answer(state, fn, args) : callFunction(fn, self, args)
    }
    const stand = new NativeProxy(native, handler)
    showAsNative(stand, native)
    return stand
  }

  const onReading = (state: Adopted, fn: Native, args: unknown[]) => callFunction(fn, readingOf(state), args)

  function usedOrLocked(reading: Response): boolean {
    return (callFunction(members.bodyUsed, reading, []) as boolean) || (callFunction(locked, callFunction(members.body, reading, []), []) as boolean)
  }

  // Used once the page's reading, or the original read by another way, is.
  const bodyUsed = (state: Adopted, fn: Native): boolean => (callFunction(fn, state.original, []) as boolean) || (state.reading !== undefined && (callFunction(fn, state.reading, []) as boolean))

  function clone(state: Adopted, fn: Native, args: unknown[]): unknown {
    const { original, reading } = state
    // A body the page used or locked: the browser's own refusal.
    if (reading && usedOrLocked(reading)) return callFunction(fn, reading, args)
    // The page has not read a byte, so the original is unread: the browser clones it, and each
    // copy is read through the guard (each opens a sink of its own once read).
    const before = reading && callFunction(members.body, original, [])
    const copy = callFunction(fn, original, args) as Response
    if (reading && callFunction(members.body, original, []) !== before) {
      // A browser that gives the cloned response a new body (Chromium) leaves the one the page
      // may hold locked: so is the page's, and its next reach for the body gets a new one.
      callFunction(getReader, callFunction(members.body, reading, []), [])
      state.reading = undefined
    }
    adopt(copy, state.open)
    return copy
  }

  /** The own properties an adopted response gets, made by the first one: shaped as the prototype's members, but not enumerable. */
  let descriptors: (readonly [string, PropertyDescriptor])[] | undefined
  function describe(): (readonly [string, PropertyDescriptor])[] {
    const made: (readonly [string, PropertyDescriptor])[] = []
    const add = (key: string, field: 'get' | 'value', stand: Native) => {
      const descriptor = objectCreate(null) as PropertyDescriptor
      descriptor[field] = stand
      if (field === 'value') descriptor.writable = true
      descriptor.enumerable = false
      descriptor.configurable = true
      made[made.length] = [key, descriptor]
    }
    add('body', 'get', standIn(members.body, onReading))
    add('bodyUsed', 'get', standIn(members.bodyUsed, bodyUsed))
    add('clone', 'value', standIn(members.clone, clone))
    // Index loops: the page may have replaced the array iterator by now.
    for (let i = 0; i < members.readers.length; i++) add(members.readers[i]![0], 'value', standIn(members.readers[i]![1], onReading))
    return made
  }

  function adopt(response: Response, open: () => BodySink): boolean {
    if (callFunction(members.body, response, []) === null) return false
    weakMapSet(adopted, response, { original: response, open, reading: undefined })
    descriptors ??= describe()
    for (let i = 0; i < descriptors.length; i++) defineProperty(response, descriptors[i]![0], descriptors[i]![1])
    return true
  }

  return { adopt }
}
