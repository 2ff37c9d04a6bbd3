// What each XMLHttpRequest has said of its request before send(): the method and URL given to
// open() and its Content-Type header. A record lives from a successful open() to the send() that
// takes it (a second send() of the same request finds none: the native one throws), and an XHR
// opened again starts a new one. Kept in a WeakMap: an XHR the page drops takes its record along.
// The built-ins used are captured at document_start, so a page that replaces WeakMap's or String's
// methods or URL later changes nothing here (the URL is resolved by wire/absolute-url.ts).
import { createAbsoluteUrl } from '../wire/absolute-url.ts'
import { isContentType, isJsonType, isPost, startsLikeObject } from '../wire/request-shape.ts'

interface UnsentRequest {
  readonly method: unknown
  readonly url: unknown
  /** The Content-Type header as set so far (values set twice are joined, as the browser joins them); null when unset. */
  contentType: string | null
}

/** A request body that may be an LLM request's, and where it goes. */
export interface Candidate {
  readonly text: string
  /** The request's absolute URL, for the panel (only asked once there is something to report). */
  readonly url: () => string
}

export interface UnsentRequests {
  /** After open(method, url) succeeded on `xhr`. */
  opened(xhr: unknown, method: unknown, url: unknown): void
  /** After setRequestHeader(name, value) succeeded on `xhr`. */
  header(xhr: unknown, name: unknown, value: unknown): void
  /** At send(body): takes `xhr`'s record; the body and its URL when it may be an LLM request. */
  sending(xhr: unknown, body: unknown): Candidate | undefined
}

export function createUnsentRequests(target: typeof globalThis): UnsentRequests {
  const apply = target.Reflect.apply
  const { get, set, delete: forget } = target.WeakMap.prototype
  const records = new target.WeakMap<object, UnsentRequest>()
  const absolute = createAbsoluteUrl(target)

  return {
    opened(xhr, method, url) {
      apply(set, records, [xhr, { method, url, contentType: null }])
    },

    header(xhr, name, value) {
      // Header names are matched case-insensitively; a name that is not a string was converted with
      // the page's own code, and a Content-Type that is not text is no JSON type.
      if (!isContentType(name)) return
      const request = apply(get, records, [xhr]) as UnsentRequest | undefined
      if (!request) return
      const type = typeof value === 'string' ? value : ''
      request.contentType = request.contentType === null ? type : `${request.contentType}, ${type}`
    },

    sending(xhr, body) {
      const request = apply(get, records, [xhr]) as UnsentRequest | undefined
      if (!request) return undefined
      apply(forget, records, [xhr])
      if (typeof body !== 'string' || !isPost(request.method) || !isJsonType(request.contentType, true) || !startsLikeObject(body)) return undefined
      // open() takes a string or a URL object. Anything else the browser turned into text with the
      // page's own toString: it is not called a second time for the panel.
      return { text: body, url: () => absolute(request.url) ?? '' }
    },
  }
}
