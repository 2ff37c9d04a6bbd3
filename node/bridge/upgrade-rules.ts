// Who may open the bridge's WebSocket (docs/security.md, "The Node bridge"). A browser always sends
// the page's Origin with a WebSocket and a page cannot forge it: any web origin is refused, so a
// site the user visits can never read the process's tool calls or change its config. The Host must
// name the loopback address, so a rebound DNS name (evil.example resolving to 127.0.0.1) is refused
// too. Extension pages (the DevTools panel) and clients that are not browsers (no Origin: the
// inspector's relay, a script) are let in.

export type UpgradeVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string }

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]']
const EXTENSION_SCHEMES = ['chrome-extension:', 'moz-extension:']

/** True for `127.0.0.1`, `localhost` or `[::1]`, with or without a port. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/:\d{1,5}$/, '')
  return LOOPBACK_NAMES.includes(name)
}

/** True for an extension page's origin: `chrome-extension://<id>` or `moz-extension://<uuid>`. */
export function isExtensionOrigin(origin: string): boolean {
  return EXTENSION_SCHEMES.some((scheme) => origin.startsWith(`${scheme}//`)) && /^[a-z-]+:\/\/[A-Za-z0-9-]+$/.test(origin)
}

export function upgradeVerdict(headers: Readonly<Record<string, string | string[] | undefined>>): UpgradeVerdict {
  const host = headers.host
  if (typeof host !== 'string' || !isLoopbackHost(host)) return { ok: false, reason: `Host ${JSON.stringify(host ?? null)} is not a loopback name` }
  const origin = headers.origin
  if (origin === undefined) return { ok: true }
  if (typeof origin === 'string' && isExtensionOrigin(origin)) return { ok: true }
  return { ok: false, reason: `Origin ${JSON.stringify(origin)} is not an extension's` }
}
