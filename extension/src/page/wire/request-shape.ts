// The cheap checks every transport's hook makes before it may hand a request to the analysis: most
// requests are not LLM requests and must go out at no measurable cost, so these look only at the
// method, the content type and the first characters of a text body. They run on every request, so
// they call only built-ins captured at document_start (engine/intrinsics.ts).
import { regExpTest, stringCharCodeAt } from '../../../../engine/intrinsics.ts'

const JSON_TYPE = /\bjson\b/i

/**
 * Whether `text` is `lower` (written in lower case) in any ASCII case: how HTTP compares methods and
 * header names, byte by byte. A call of a captured method costs more than a comparison of whole
 * strings, so the callers first compare the usual spellings at once.
 */
function isAsciiCaseless(text: string, lower: string): boolean {
  if (text.length !== lower.length) return false
  for (let i = 0; i < text.length; i++) {
    const c = stringCharCodeAt(text, i)
    const want = stringCharCodeAt(lower, i)
    if (c !== want && !(c >= 0x41 && c <= 0x5a && c + 0x20 === want)) return false
  }
  return true
}

export const isPost = (method: unknown): boolean => method === 'POST' || method === 'post' || (typeof method === 'string' && isAsciiCaseless(method, 'post'))

/** A header name that is Content-Type; a name that is not text is not one (converting it would run the page's code). */
export const isContentType = (name: unknown): boolean => name === 'Content-Type' || name === 'content-type' || (typeof name === 'string' && isAsciiCaseless(name, 'content-type'))

/**
 * A JSON media type; a string body without a content type (it goes out as text/plain) may be JSON
 * too. The types SDKs send compare at once; the captured `exec` builds a match for any other.
 */
export function isJsonType(type: string | null, orNone: boolean): boolean {
  if (type === null) return orNone
  return (
    type === 'application/json' || type === 'application/json; charset=utf-8' || type === 'application/json;charset=utf-8' || type === 'application/json; charset=UTF-8' || regExpTest(JSON_TYPE, type)
  )
}

/** The first character that is not white space opens an object. */
export function startsLikeObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = stringCharCodeAt(text, i)
    if (c === 0x7b) return true
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false
  }
  return false
}
