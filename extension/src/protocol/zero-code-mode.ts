// Where zero-code mode rewrites (docs/zero-code.md, "Per-origin modes"): one setting per origin, kept in extension storage by
// the panel. A rewrite on a site the user never meant to guard is a data bug, so only local
// origins default to `guard`; every other origin is observed until the user says otherwise.
import { isRecord } from '../../../engine/safe-reading.ts'

export const ZERO_CODE_MODES = ['guard', 'observe', 'off'] as const
/** `guard`: reminders inserted; `observe`: analysed and shown, sent as the page made it; `off`: not analysed. */
export type ZeroCodeMode = (typeof ZERO_CODE_MODES)[number]

/** The extension-storage key holding the per-origin settings (panel -> storage -> content -> page). */
export const ZERO_CODE_STORAGE_KEY = 'zeroCodeOrigins'

/** Every `file:` document shares one setting: their origins are opaque. */
const FILE_ORIGIN = 'file://'

/** Origins kept at most; more is a corrupt or hostile value, not a user's clicks. */
const MAX_ORIGINS = 10_000
const MAX_ORIGIN_LENGTH = 2_048

const isZeroCodeMode = (value: unknown): value is ZeroCodeMode => typeof value === 'string' && (ZERO_CODE_MODES as readonly string[]).includes(value)

/** The origin a setting is kept under for a document at `url`; undefined for an opaque one (`data:`, sandboxed). */
export function originOf(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  if (parsed.protocol === 'file:') return FILE_ORIGIN
  return parsed.origin === 'null' ? undefined : parsed.origin
}

function isLocal(origin: string): boolean {
  if (origin === FILE_ORIGIN) return true
  const hostname = hostnameOf(origin)
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '127.0.0.1' || hostname === '[::1]'
}

/**
 * The host name of a serialised origin (`scheme://host[:port]`, lower-case, as `window.origin` and
 * `URL.origin` give it), read off the text: every frame decides this at document_start, where a
 * parse by the URL API would cost more than all the rest of the decision.
 */
function hostnameOf(origin: string): string {
  const scheme = origin.indexOf('://')
  if (scheme === -1) return ''
  const host = origin.slice(scheme + 3)
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.indexOf(':')
  return end > 0 ? host.slice(0, end) : host
}

/**
 * The origin of the frame `win` shows: `origin` follows an `about:blank` or `srcdoc` frame's
 * creator; `file:` documents share FILE_ORIGIN; undefined for an opaque origin.
 */
export function frameOrigin(win: { readonly origin: string; readonly location: { readonly protocol: string } }): string | undefined {
  if (win.location.protocol === 'file:') return FILE_ORIGIN
  return win.origin === 'null' ? undefined : win.origin
}

/** Guard on the user's own machine, observe everywhere else (and where the origin is unknown). */
export function defaultModeFor(origin: string | undefined): ZeroCodeMode {
  return origin !== undefined && isLocal(origin) ? 'guard' : 'observe'
}

export type ZeroCodeSettings = Readonly<Record<string, ZeroCodeMode>>

interface ReadSettings {
  /** The valid entries. */
  readonly settings: ZeroCodeSettings
  /** One reason per entry (or for the whole value) that was refused. */
  readonly rejected: readonly string[]
}

/** The stored value, entry by entry: a bad entry is refused with its reason, the others still apply. */
export function readZeroCodeSettings(value: unknown): ReadSettings {
  if (value === undefined) return { settings: {}, rejected: [] }
  if (!isRecord(value)) return { settings: {}, rejected: ['the stored value must be an object of origin: setting'] }
  const settings: Record<string, ZeroCodeMode> = Object.create(null)
  const rejected: string[] = []
  let kept = 0
  for (const [origin, mode] of Object.entries(value)) {
    const name = JSON.stringify(origin.length > 80 ? `${origin.slice(0, 80)}…` : origin)
    if (origin.length > MAX_ORIGIN_LENGTH || originOf(origin) !== origin) rejected.push(`${name} is not an origin (scheme://host[:port], or ${FILE_ORIGIN})`)
    else if (!isZeroCodeMode(mode)) rejected.push(`${name}: the setting must be one of ${ZERO_CODE_MODES.join(', ')}`)
    else if (kept >= MAX_ORIGINS) rejected.push(`${name}: more than ${MAX_ORIGINS} origins are stored`)
    else {
      settings[origin] = mode
      kept += 1
    }
  }
  return { settings, rejected }
}

/** The setting in force for `origin`: the stored one, else its default. */
export function modeFor(settings: ZeroCodeSettings, origin: string | undefined): ZeroCodeMode {
  return (origin !== undefined && Object.hasOwn(settings, origin) ? settings[origin] : undefined) ?? defaultModeFor(origin)
}
