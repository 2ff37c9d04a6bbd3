// The page keeps the very Response object the browser gave it: its status, headers, url,
// redirected, type and prototype are the browser's own (a Response built from a stream could not
// carry url, redirected or type). Only its body is read another way. `Response.prototype`'s
// `body`, `bodyUsed`, `text()`, `json()`, `arrayBuffer()`, `blob()`, `formData()`, `bytes()` and
// `clone()` are replaced at document_start by stand-ins printed as them (as XMLHttpRequest's
// methods are, xhr/install.ts): on any response the guard does not watch they are the browser's
// members, called as they are; on a watched one they answer from a second Response over the
// pass-through stream (pass-through.ts), so each is still the browser's own (its errors, its
// decoding, its blob type from the Content-Type) reading what passes through. A watched response
// has no property of its own, and a page that wraps one of these members later wraps the
// stand-in, so its wrapper runs for watched responses too. A clone is another Response of the
// browser's, watched the same way.
import { callFunction, objectCreate, weakMapGet, weakMapSet } from '../../../../engine/intrinsics.ts'
import type { ShowAsNative } from '../native-look.ts'
import type { BodyNatives } from './body-natives.ts'
import { watchBody, type BodySink } from './body-watcher.ts'
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

const { defineProperty, getOwnPropertyDescriptor } = Object

/** Installs the stand-ins on `target`'s Response.prototype; run at document_start, with what was captured then. */
export function createPageResponses(target: typeof globalThis, natives: BodyNatives, showAsNative: ShowAsNative): PageResponses {
  const { NativeProxy, NativeResponse, response: members, headersOf, headersGet, locked, getReader } = natives
  const adopted = new WeakMap<object, Adopted>()

  function readingOf(state: Adopted): Response {
    if (state.reading) return state.reading
    const { original, open } = state
    const stream = passThrough(natives, () => callFunction(members.body, original, []) as ReadableStream<Uint8Array>, () => watchBody(natives, open()))
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

  const prototype = target.Response.prototype
  /** Puts a stand-in for the member `key` in its place: `answer` on a watched response, the member itself on anything else. */
  function standIn(key: string, answer: (state: Adopted, native: Native, args: unknown[]) => unknown): void {
    const descriptor = getOwnPropertyDescriptor(prototype, key)!
    const field = descriptor.get ? 'get' : 'value'
    const native = descriptor[field] as Native
    const handler = objectCreate(null) as ProxyHandler<Native>
    handler.apply = (fn: Native, self: unknown, args: unknown[]) => {
      const state = typeof self === 'object' && self !== null ? weakMapGet(adopted, self) : undefined
      return state ? answer(state, fn, args) : callFunction(fn, self, args)
    }
    const stand = new NativeProxy(native, handler)
    defineProperty(prototype, key, { ...descriptor, [field]: stand })
    showAsNative(stand, native)
  }

  const onReading = (state: Adopted, fn: Native, args: unknown[]) => callFunction(fn, readingOf(state), args)

  function usedOrLocked(reading: Response): boolean {
    return (callFunction(members.bodyUsed, reading, []) as boolean) || (callFunction(locked, callFunction(members.body, reading, []), []) as boolean)
  }

  standIn('body', onReading)
  // Used once the page's reading, or the original read by another way, is.
  standIn('bodyUsed', (state, fn) => (callFunction(fn, state.original, []) as boolean) || (state.reading !== undefined && (callFunction(fn, state.reading, []) as boolean)))
  standIn('clone', (state, fn, args) => {
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
  })
  for (const [key] of members.readers) standIn(key, onReading)

  function adopt(response: Response, open: () => BodySink): boolean {
    if (callFunction(members.body, response, []) === null) return false
    weakMapSet(adopted, response, { original: response, open, reading: undefined })
    return true
  }

  return { adopt }
}
