// The app keeps the very Response object fetch gave it: its status, headers, url, redirected and
// type are undici's own. Only its body is read another way: `body`, `bodyUsed`, `clone()` and the
// reading methods become own properties of that one object (not enumerable, like nothing of a
// native Response is), answering from a second Response over the pass-through stream
// (body-watch.ts), so each method is still undici's own reading what passes through.
// `Response.prototype` is left as it is: every other response of the process is undici's alone.
import { type BodySink, passThrough } from './body-watch.ts'

const proto = Response.prototype
const nativeBody = Object.getOwnPropertyDescriptor(proto, 'body')!.get! as (this: Response) => ReadableStream<Uint8Array> | null
const nativeBodyUsed = Object.getOwnPropertyDescriptor(proto, 'bodyUsed')!.get! as (this: Response) => boolean
const nativeClone = proto.clone
/** The reading methods this Node's Response has (`bytes` is recent). */
const READERS = (['arrayBuffer', 'blob', 'bytes', 'formData', 'json', 'text'] as const).filter((name) => typeof proto[name as keyof Response] === 'function')

/** Has the app read `response`'s body through the sink `open` returns (opened at its first read); false when it has no body. */
export function tapResponse(response: Response, open: () => BodySink): boolean {
  if (nativeBody.call(response) === null) return false
  let reading: Response | undefined
  const readingOf = (): Response => {
    if (reading) return reading
    const type = response.headers.get('content-type')
    // Only the body's own members matter; `blob()` and `formData()` read its Content-Type.
    reading = new Response(
      passThrough(() => nativeBody.call(response)!, open),
      type === null ? {} : { headers: { 'content-type': type } },
    )
    return reading
  }
  const define = (key: string, descriptor: PropertyDescriptor) => Object.defineProperty(response, key, { ...descriptor, enumerable: false, configurable: true })
  define('body', { get: () => readingOf().body })
  define('bodyUsed', { get: () => nativeBodyUsed.call(response) || (reading !== undefined && nativeBodyUsed.call(reading)) })
  for (const name of READERS) {
    const method = proto[name] as (this: Response) => Promise<unknown>
    define(name, { writable: true, value: () => method.call(readingOf()) })
  }
  define('clone', {
    writable: true,
    value: (): Response => {
      // A body the app used or locked: undici's own refusal.
      if (reading && (nativeBodyUsed.call(reading) || reading.body!.locked)) return nativeClone.call(reading)
      // Not a byte read yet (the pass-through pulls only when read): undici clones the original,
      // and each copy is read through the guard, with a sink of its own.
      const copy = nativeClone.call(response)
      tapResponse(copy, open)
      return copy
    },
  })
  return true
}
