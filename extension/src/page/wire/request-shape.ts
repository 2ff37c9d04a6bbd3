// The cheap checks every transport's hook makes before it may hand a request to the analysis: most
// requests are not LLM requests and must go out at no measurable cost, so these look only at the
// method, the content type and the first characters of a text body.

export function isPost(method: unknown): boolean {
  return typeof method === 'string' && method.length === 4 && method.toUpperCase() === 'POST'
}

/** A JSON media type; a string body without a content type (it goes out as text/plain) may be JSON too. */
export function isJsonType(type: string | null, orNone: boolean): boolean {
  return type === null ? orNone : /\bjson\b/i.test(type)
}

/** The first character that is not white space opens an object. */
export function startsLikeObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x7b) return true
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false
  }
  return false
}
