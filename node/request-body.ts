// What a fetch call sends, read as cheaply as possible (docs/node.md, "How it works"): most calls
// are not LLM requests and must go out at no measurable cost, so the checks run cheapest first and
// no body is read unless it is a JSON POST. Buffers, streams, FormData, Blobs and URLSearchParams
// are never touched. The SDKs call `fetch(url, init)` with a string body; a Request object with
// its own body is read from a clone, so the app's stays unread.

/** A body worth inspecting: a JSON text at hand, or a Request whose JSON body must be read. */
export type Candidate = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'request'; readonly request: Request }

const JSON_TYPE = /\bjson\b/i

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

const isPost = (method: unknown): boolean => method === 'POST' || (typeof method === 'string' && method.toUpperCase() === 'POST')

/** A string body without a content type goes out as text/plain, and may be JSON too (`orNone`). */
function isJsonType(type: string | null, orNone: boolean): boolean {
  if (type === null) return orNone
  return type === 'application/json' || JSON_TYPE.test(type)
}

/** The first character that is not white space opens an object. */
function startsLikeObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x7b) return true
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false
  }
  return false
}

/** The Content-Type of a fetch init's headers (a Headers, a list of pairs or a record); null when unset. */
function contentType(headers: unknown): string | null {
  if (headers instanceof Headers) return headers.get('content-type')
  if (Array.isArray(headers)) {
    for (const pair of headers) if (Array.isArray(pair) && pair.length > 1 && String(pair[0]).toLowerCase() === 'content-type') return String(pair[1])
    return null
  }
  if (isObject(headers)) for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') return String(headers[name])
  return null
}

/** The body of `fetch(...args)` when it may be an LLM request; undefined for anything else. */
export function candidateOf(args: readonly unknown[]): Candidate | undefined {
  const input = args[0]
  const init = args.length > 1 ? args[1] : undefined
  const isRequest = input instanceof Request
  const body = isObject(init) ? init.body : undefined
  if (body !== undefined && body !== null) {
    if (typeof body !== 'string' || !startsLikeObject(body)) return undefined
    const method = (init as Record<string, unknown>).method ?? (isRequest ? input.method : 'GET')
    if (!isPost(method) || !isJsonType(contentType((init as Record<string, unknown>).headers), true)) return undefined
    return { kind: 'text', text: body }
  }
  // A Request with an init as well is passed through: merging the two would consume the app's body.
  if (!isRequest || (init !== undefined && init !== null)) return undefined
  if (!isPost(input.method) || input.body === null || !isJsonType(input.headers.get('content-type'), false)) return undefined
  return { kind: 'request', request: input }
}

/**
 * The arguments of the same call with `body` instead of the init's: fetch reads every other field
 * from the app's own init (inherited, non-enumerable and getters included), through a Proxy. A body
 * frozen in place cannot be reported otherwise by a Proxy over that init, so the Proxy then stands
 * over an empty object (fetch only gets the init's fields, it never lists them).
 */
export function withBody(args: readonly unknown[], body: string): unknown[] {
  const init = args[1] as object
  const own = Object.getOwnPropertyDescriptor(init, 'body')
  const frozen = own !== undefined && !own.configurable && 'value' in own && !own.writable
  const proxied = new Proxy(frozen ? Object.create(null) : init, { get: (_, key) => (key === 'body' ? body : Reflect.get(init, key)) })
  return [args[0], proxied, ...args.slice(2)]
}

/** A Request like `request` in every way but its body. */
export const requestWithBody = (request: Request, body: string): Request => new Request(request, { body })

/** The text of a Request's body, read from a clone: the app's own body stays unread. */
export const bodyText = (request: Request): Promise<string> => request.clone().text()

/** The URL a fetch input names. */
export function urlOf(input: unknown): string {
  if (input instanceof Request) return input.url
  try {
    return String(input)
  } catch {
    return ''
  }
}
