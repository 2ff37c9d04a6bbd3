// The page's address for the panel's page-load row, read by the on-demand half: the first touch of
// `location` (or `performance`) costs every frame at document_start, agent or not. It is still the
// address the frame loaded at: the navigation's entry keeps it through same-document navigations
// (`pushState`, a new fragment). Redacting it (protocol/redact-url.ts) takes a URL parse, with the
// built-ins the page has by then. A page that replaced one of those with a throwing version gets
// the address with nothing after the path (no query, no fragment, no user info).
import { stringCharCodeAt, stringSlice } from '../../../engine/intrinsics.ts'
import { redactUrl } from '../protocol/redact-url.ts'

export interface PageAddress {
  readonly href: string
  /** Scheme, host and path; only the scheme for an opaque origin. */
  readonly bare: string
}

interface Frame {
  readonly location: { readonly href: string }
  readonly performance: { getEntriesByType(type: 'navigation'): readonly { readonly name: string }[] }
}

/** Where the frame loaded; `origin` is the one read at document_start. */
export function loadedAddress(win: Frame, origin: string): PageAddress {
  const href = navigationName(win) ?? win.location.href
  return { href, bare: bareOf(href, origin) }
}

/** The navigation entry's URL; none for a page that broke `performance`, or a browser without it. */
function navigationName({ performance }: Frame): string | undefined {
  try {
    const name = performance.getEntriesByType('navigation')[0]?.name
    return typeof name === 'string' && name !== '' ? name : undefined
  } catch {
    return undefined
  }
}

const COLON = 0x3a
const SLASH = 0x2f
const QUERY = 0x3f
const FRAGMENT = 0x23
const AT = 0x40

/** `href` up to its path, without user info; a browser-serialised URL, read with no built-in the page can replace. */
function bareOf(href: string, origin: string): string {
  const end = indexOf(href, 0, (c) => c === QUERY || c === FRAGMENT)
  const colon = indexOf(href, 0, (c) => c === COLON)
  if (origin === 'null' || colon >= end) return stringSlice(href, 0, colon < end ? colon + 1 : end)
  const hasAuthority = stringCharCodeAt(href, colon + 1) === SLASH && stringCharCodeAt(href, colon + 2) === SLASH
  if (!hasAuthority) return stringSlice(href, 0, end)
  const host = colon + 3
  const slash = indexOf(href, host, (c) => c === SLASH)
  // biome-ignore lint/complexity/useMathMinMax: the page may have replaced Math.min (CONTRIBUTING.md, "Rules for the code")
  const path = slash < end ? slash : end
  let userEnd = host
  for (let i = host; i < path; i++) if (stringCharCodeAt(href, i) === AT) userEnd = i + 1
  return `${stringSlice(href, 0, host)}${stringSlice(href, userEnd, path)}${stringSlice(href, path, end)}`
}

/** The first index from `from` whose code unit passes `test`, else the length. */
function indexOf(text: string, from: number, test: (code: number) => boolean): number {
  for (let i = from; i < text.length; i++) if (test(stringCharCodeAt(text, i))) return i
  return text.length
}

/** The address as the extension records it. */
export function reportedAddress({ href, bare }: PageAddress): string {
  try {
    return redactUrl(href)
  } catch {
    return bare
  }
}
