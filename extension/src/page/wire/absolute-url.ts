// Where a request goes, as the panel shows it: its URL resolved against the frame's address.
// Every transport's hook asks only once there is something to report, and the URL built-ins are
// captured then, not at document_start: the first touch of the URL interface costs every frame.
import { callFunction, hasInstance } from '../../../../engine/intrinsics.ts'

/**
 * The absolute URL of a string (itself when it does not parse) or of a `URL` object; undefined for
 * anything else, which the caller turns into text its own way (or not at all).
 */
export type AbsoluteUrl = (url: unknown) => string | undefined

const { getOwnPropertyDescriptor } = Object

export function createAbsoluteUrl(target: typeof globalThis): AbsoluteUrl {
  let captured: { readonly NativeUrl: typeof URL; readonly href: () => string } | undefined
  function natives() {
    if (captured) return captured
    // A window always has its URL; a realm without one (a bare script context) uses this script's.
    const NativeUrl = target.URL ?? URL
    return (captured = { NativeUrl, href: getOwnPropertyDescriptor(NativeUrl.prototype, 'href')!.get! })
  }
  const base = (): string | undefined => {
    try {
      return target.location?.href
    } catch {
      return undefined
    }
  }
  /**
   * The last string resolved, the address it was resolved against, and what that gave: a stream
   * read as the page reads it reports many times, and parsing a URL costs more than the rest of a report.
   */
  let last: { readonly url: string; readonly base: string | undefined; readonly absolute: string } | undefined
  function resolved(NativeUrl: typeof URL, href: () => string, url: string): string {
    const against = base()
    if (last !== undefined && last.url === url && last.base === against) return last.absolute
    let absolute: string
    try {
      absolute = callFunction(href, new NativeUrl(url, against), []) as string
    } catch {
      absolute = url
    }
    last = { url, base: against, absolute }
    return absolute
  }
  return (url) => {
    const { NativeUrl, href } = natives()
    if (hasInstance(NativeUrl, url)) return callFunction(href, url, []) as string
    return typeof url === 'string' ? resolved(NativeUrl, href, url) : undefined
  }
}
