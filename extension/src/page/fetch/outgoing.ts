// What a fetch call sends, read as cheaply as possible: most calls are not LLM requests and must
// go out at no measurable cost, so the checks run cheapest first and no body is ever read unless
// it is a JSON POST. FormData, Blob, buffers, URLSearchParams and streams are never touched, and
// neither is a keep-alive Request (its body can only be read asynchronously: it would be delayed).
import { createAbsoluteUrl } from '../wire/absolute-url.ts'
import { isJsonType, isPost, startsLikeObject } from '../wire/request-shape.ts'

/** A request body worth inspecting: a JSON text at hand, or a Request whose JSON body must be read. */
export type Candidate =
  | { readonly kind: 'text'; readonly text: string; readonly input: unknown; readonly keepalive: boolean }
  | { readonly kind: 'request'; readonly request: Request }

export interface Outgoing {
  /** The body of `fetch(...args)` when it may be an LLM request; undefined for anything else. */
  candidate(args: readonly unknown[]): Candidate | undefined
  /**
   * The arguments of the same call with `body` instead of the text body `candidate` found. The init
   * the browser reads is the page's own in every field but `body`.
   */
  withBody(args: readonly unknown[], body: string): unknown[]
  /** A Request like `request` in every way but its body. */
  requestWithBody(request: Request, body: string): Request
  /** The absolute URL a fetch input names, for the panel (only asked once there is something to report). */
  urlOf(input: unknown): string
}

/** The Request and Headers built-ins a fetch call is read with. */
interface RequestNatives {
  readonly NativeRequest: typeof Request
  readonly NativeHeaders: typeof Headers
  readonly headersGet: typeof Headers.prototype.get
  readonly requestUrl: () => string
  readonly requestMethod: () => string
  readonly requestBody: (() => ReadableStream | null) | undefined
  readonly requestHeaders: () => Headers
  readonly requestKeepalive: (() => boolean) | undefined
}

const { getOwnPropertyDescriptor } = Object

function captureRequestNatives(target: typeof globalThis): RequestNatives {
  const NativeRequest = target.Request
  const NativeHeaders = target.Headers
  const getter = (key: string) => getOwnPropertyDescriptor(NativeRequest.prototype, key)?.get
  return {
    NativeRequest,
    NativeHeaders,
    headersGet: NativeHeaders.prototype.get,
    requestUrl: getter('url')!,
    requestMethod: getter('method')!,
    requestBody: getter('body'),
    requestHeaders: getter('headers')!,
    requestKeepalive: getter('keepalive'),
  }
}

/**
 * The JavaScript built-ins are captured at document_start, before page scripts can replace them;
 * the Request and Headers interfaces at the first call, since the first touch of an interface
 * costs every frame, agent or not.
 */
export function createOutgoing(target: typeof globalThis): Outgoing {
  let captured: RequestNatives | undefined
  const natives = (): RequestNatives => (captured ??= captureRequestNatives(target))
  const NativeProxy = target.Proxy
  const { get: reflectGet, getOwnPropertyDescriptor: ownDescriptor } = target.Reflect
  const createObject = target.Object.create
  const absolute = createAbsoluteUrl(target)

  function contentType(headers: unknown): string | null {
    const { NativeHeaders, headersGet } = natives()
    if (headers instanceof NativeHeaders) return Reflect.apply(headersGet, headers, ['content-type']) as string | null
    const pairs = Array.isArray(headers) ? headers : isObject(headers) ? Object.entries(headers) : []
    for (const pair of pairs) {
      if (Array.isArray(pair) && String(pair[0]).toLowerCase() === 'content-type') return String(pair[1])
    }
    return null
  }

  function keepaliveOf(request: Request): boolean {
    const { requestKeepalive } = natives()
    return requestKeepalive !== undefined && Reflect.apply(requestKeepalive, request, []) === true
  }

  /**
   * The page's init as fetch reads it, but for its body: every field, own or inherited, enumerable
   * or not, is read from the page's object, and its getters run on it (private fields included).
   * A copy like `{...init, body}` would lose the inherited and non-enumerable ones, and an object
   * inheriting from the init would run the getters on itself. A body frozen in place cannot be
   * reported differently by a Proxy over the init itself, so then the Proxy stands over an empty
   * object (fetch only ever gets the init's fields, it never lists them).
   */
  function initWithBody(init: object, body: string): object {
    const own = ownDescriptor(init, 'body')
    const frozenBody = own !== undefined && !own.configurable && 'value' in own && !own.writable
    return new NativeProxy(frozenBody ? createObject(null) : init, { get: (_, key) => (key === 'body' ? body : reflectGet(init, key)) })
  }

  function urlOf(input: unknown): string {
    const { NativeRequest, requestUrl } = natives()
    if (input instanceof NativeRequest) return absolute(Reflect.apply(requestUrl, input, []))!
    return absolute(input) ?? absolute(String(input))!
  }

  return {
    candidate([input, init]) {
      const { NativeRequest, requestMethod, requestBody, requestHeaders } = natives()
      const body = isObject(init) ? init.body : undefined
      if (body !== undefined && body !== null) {
        if (typeof body !== 'string' || !startsLikeObject(body)) return undefined
        const method = isObject(init) && init.method !== undefined ? init.method : input instanceof NativeRequest ? Reflect.apply(requestMethod, input, []) : 'GET'
        if (!isPost(method) || !isJsonType(contentType((init as Record<string, unknown>).headers), true)) return undefined
        const keepalive = (init as Record<string, unknown>).keepalive
        return { kind: 'text', text: body, input, keepalive: keepalive === undefined ? input instanceof NativeRequest && keepaliveOf(input) : Boolean(keepalive) }
      }
      // A Request carrying its own body (a Request plus init is passed through: it rarely happens,
      // and merging the two would consume the page's body).
      if (!(input instanceof NativeRequest) || (init !== undefined && init !== null) || !requestBody) return undefined
      if (!isPost(Reflect.apply(requestMethod, input, [])) || Reflect.apply(requestBody, input, []) === null || keepaliveOf(input)) return undefined
      if (!isJsonType(contentType(Reflect.apply(requestHeaders, input, [])), false)) return undefined
      return { kind: 'request', request: input }
    },

    withBody: ([input, init, ...rest], body) => [input, initWithBody(init as object, body), ...rest],

    requestWithBody: (request, body) => new (natives().NativeRequest)(request, { body }),

    urlOf,
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}
