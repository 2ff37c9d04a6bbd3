// The message a WebLLM client posts, with the request the wire guard rewrote in place of its own. The
// rewrite comes back as JSON text, but a request object can hold what JSON cannot carry and the
// worker needs (a `Float32Array` of audio samples, a field set to `undefined`, a `Date`): the new
// request is the page's own values wherever the JSON of the two agrees, and the parsed JSON only
// where the wire guard inserted something. The page's objects are never changed: every object on
// the way to an insertion is a copy.
import { isArray, jsonParse, jsonStringify, objectKeys } from '../../../../engine/intrinsics.ts'
import { isRecord } from '../../../../engine/safe-reading.ts'
import type { ChatRequestMessage } from './request.ts'

const defineProperty = Object.defineProperty

/** A new message equal to the page's, its `content.request` made from `rewritten` (the request's JSON, rewritten). */
export function messageWithRequest({ message, content, request }: ChatRequestMessage, rewritten: string): object {
  return { ...message, content: { ...content, request: merged(request, jsonParse(rewritten)) } }
}

/** `parsed`, with the page's own value wherever it has the same JSON. */
function merged(page: unknown, parsed: unknown): unknown {
  if (sameJson(page, parsed)) return page
  if (isArray(page) && isArray(parsed)) return mergedList(page, parsed)
  if (isRecord(page) && isRecord(parsed)) {
    const out: Record<string, unknown> = { ...page }
    const keys = objectKeys(parsed)
    // Defined, not assigned: a key named `__proto__` stays a key.
    for (let i = 0; i < keys.length; i++)
      defineProperty(out, keys[i]!, { __proto__: null, value: merged(page[keys[i]!], parsed[keys[i]!]), writable: true, enumerable: true, configurable: true } as PropertyDescriptor)
    return out
  }
  return parsed
}

/**
 * The wire guard only inserts items: walking both lists, an item that does not match the page's
 * next one is inserted, unless as many items are left on both sides (then it is the page's, with
 * an insertion further down).
 */
function mergedList(page: readonly unknown[], parsed: readonly unknown[]): unknown[] {
  const out: unknown[] = []
  let next = 0
  for (let i = 0; i < parsed.length; i++) {
    const insertion = parsed.length - i > page.length - next
    out[out.length] = next < page.length && (!insertion || sameJson(page[next], parsed[i])) ? merged(page[next++], parsed[i]) : parsed[i]
  }
  return out
}

const sameJson = (a: unknown, b: unknown): boolean => jsonStringify(a) === jsonStringify(b)
