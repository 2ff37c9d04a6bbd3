// What a page realm of the unit tests reads responses with: this realm's Response, Headers and
// streams, as a page holds the browser's. The page script puts its stand-ins on that
// Response.prototype (extension/src/page/responses/page-response.ts), so each test that installs
// it gets the prototype back as it was after it.
import { afterEach } from 'vitest'

export const STREAMS = { Request, Headers, Response, ReadableStream, ReadableStreamDefaultReader, ReadableByteStreamController, ReadableStreamBYOBRequest, TextDecoder }

/** Restores Response.prototype after each test of the file that calls it. */
export function restoreResponsePrototypeAfterEach(): void {
  const asItWas = Object.getOwnPropertyDescriptors(Response.prototype)
  afterEach(() => {
    for (const key of Reflect.ownKeys(asItWas)) Object.defineProperty(Response.prototype, key, asItWas[key as keyof typeof asItWas]!)
  })
}
