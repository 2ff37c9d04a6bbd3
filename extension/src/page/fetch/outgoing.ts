// What a fetch call sends, read as cheaply as possible: most calls are not LLM requests and must
// go out at no measurable cost, so the checks run cheapest first and no body is ever read unless
// it is a JSON POST. FormData, Blob, buffers, URLSearchParams and streams are never touched, and
// neither is a keep-alive Request (its body can only be read asynchronously: it would be delayed).
// Every call of the page goes through here, so only captured built-ins are called: the page's own
// code runs only where fetch itself runs it (the getters of its init and headers objects).
import { callFunction, hasInstance, isArray, objectKeys } from '../../../../engine/intrinsics.ts'
import { argument } from '../hook-arguments.ts'
import { createAbsoluteUrl } from '../wire/absolute-url.ts'
import { isContentType, isJsonType, isPost, startsLikeObject } from '../wire/request-shape.ts'

/** A request body worth inspecting: a JSON text at hand, or a Request whose JSON body must be read. */
export type Candidate = { readonly kind: 'text'; readonly text: string; readonly input: unknown; readonly keepalive: boolean } | { readonly kind: 'request'; readonly request: Request }

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
  /** The text of a Request's body, read from a clone: the page's own body stays unread. */
  bodyText(request: Request): Promise<string>
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
  readonly requestClone: () => Request
  readonly bodyText: () => Promise<string>
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
    requestClone: NativeRequest.prototype.clone,
    bodyText: NativeRequest.prototype.text,
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

  /**
   * The Content-Type of a fetch init's headers (a Headers, a list of pairs or a record), null when
   * unset. A name or value that is not text would be converted with the page's own code: such a
   * header is not read (its value counts as no JSON type).
   */
  function contentType(headers: unknown): string | null {
    const { NativeHeaders, headersGet } = natives()
    if (hasInstance(NativeHeaders, headers)) return callFunction(headersGet, headers, ['content-type']) as string | null
    if (isArray(headers)) {
      for (let i = 0; i < headers.length; i++) {
        const pair: unknown = headers[i]
        if (isArray(pair) && pair.length > 1 && isContentType(pair[0])) return textOr(pair[1])
      }
    } else if (isObject(headers)) {
      const names = objectKeys(headers)
      for (let i = 0; i < names.length; i++) if (isContentType(names[i])) return textOr(headers[names[i]!])
    }
    return null
  }

  function keepaliveOf(request: Request): boolean {
    const { requestKeepalive } = natives()
    return requestKeepalive !== undefined && callFunction(requestKeepalive, request, []) === true
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

  /**
   * Anything but a string, a URL or a Request the browser turned into text with the page's own
   * code: it is not called a second time for the panel.
   */
  function urlOf(input: unknown): string {
    const { NativeRequest, requestUrl } = natives()
    if (isObject(input) && hasInstance(NativeRequest, input)) return absolute(callFunction(requestUrl, input, []))!
    return absolute(input) ?? ''
  }

  return {
    candidate(args) {
      const { NativeRequest, requestMethod, requestBody, requestHeaders } = natives()
      const input = argument(args, 0)
      const init = argument(args, 1)
      // Most calls name their resource as text: no Request to tell apart.
      const isRequest = isObject(input) && hasInstance(NativeRequest, input)
      const body = isObject(init) ? init.body : undefined
      if (body !== undefined && body !== null) {
        if (typeof body !== 'string' || !startsLikeObject(body)) return undefined
        const method = isObject(init) && init.method !== undefined ? init.method : isRequest ? callFunction(requestMethod, input, []) : 'GET'
        if (!isPost(method) || !isJsonType(contentType((init as Record<string, unknown>).headers), true)) return undefined
        const keepalive = (init as Record<string, unknown>).keepalive
        return { kind: 'text', text: body, input, keepalive: keepalive === undefined ? isRequest && keepaliveOf(input as unknown as Request) : !!keepalive }
      }
      // A Request carrying its own body (a Request plus init is passed through: it rarely happens,
      // and merging the two would consume the page's body).
      if (!isRequest || (init !== undefined && init !== null) || !requestBody) return undefined
      const request = input as unknown as Request
      if (!isPost(callFunction(requestMethod, request, [])) || callFunction(requestBody, request, []) === null || keepaliveOf(request)) return undefined
      if (!isJsonType(contentType(callFunction(requestHeaders, request, [])), false)) return undefined
      return { kind: 'request', request }
    },

    withBody(args, body) {
      const out = [argument(args, 0), initWithBody(argument(args, 1) as object, body)]
      for (let i = 2; i < args.length; i++) out[out.length] = args[i]
      return out
    },

    // The init has no prototype: the browser reads only `body` from it, never a member the page
    // may have put on Object.prototype.
    requestWithBody: (request, body) => new (natives().NativeRequest)(request, { __proto__: null, body } as RequestInit),

    bodyText(request) {
      const { requestClone, bodyText } = natives()
      return callFunction(bodyText, callFunction(requestClone, request, []), []) as Promise<string>
    },

    urlOf,
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** A header's value as the JSON-type check reads it: text as it is, anything else as no type. */
const textOr = (value: unknown): string => (typeof value === 'string' ? value : '')
