// The page's address for the panel's page-load row. Redacting it (protocol/redact-url.ts) takes a
// URL parse that every frame would pay at document_start, agent or not, so the on-demand half does
// it, with the built-ins the page has by then. A page that replaced one of those with a throwing
// version before its first call gets the address with nothing after the path (no query, no
// fragment, no user info), read at document_start like the address itself.
import { redactUrl } from '../protocol/redact-url.ts'

export interface PageAddress {
  readonly href: string
  /** `origin` and path; only the scheme for an opaque origin. */
  readonly bare: string
}

export function addressOf(location: Location): PageAddress {
  const { href, origin, pathname, protocol } = location
  return { href, bare: origin === 'null' ? protocol : `${origin}${pathname}` }
}

/** The address as the extension records it. */
export function reportedAddress({ href, bare }: PageAddress): string {
  try {
    return redactUrl(href)
  } catch {
    return bare
  }
}
