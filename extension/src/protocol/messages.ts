// Every message between execution contexts. Each hop validates what it receives against these
// shapes (see validate.ts) and drops, and counts, anything else.
import type { GuardConfig } from '../../../engine/index.ts'
import type { AgentDescriptor, PanelEvent } from './events.ts'
import type { ZeroCodeMode } from './zero-code-mode.ts'

/**
 * The event the relay dispatches on its window at document_start, before any page script exists,
 * to hand the page script its end of the private channel between the two (a MessagePort in the
 * event's `ports`). The page script takes the first offer and no other (docs/security.md, "The
 * channel between the page script and the relay").
 */
export const CHANNEL_EVENT = 'repeat-tool-guard/channel'

/**
 * Who sent a message on that channel. Only the two scripts hold its ends, so a message tagged as
 * the wrong one (a `source` drop) is a defect, never a page's forgery.
 */
export const PAGE_SOURCE = 'repeat-tool-guard/page'
export const CONTENT_SOURCE = 'repeat-tool-guard/content'

/** Port names (runtime.connect) for the content relay and for panels. */
export const CONTENT_PORT = 'repeat-tool-guard/content'
export const PANEL_PORT = 'repeat-tool-guard/panel'

/** The extension-storage key holding the user's config (panel -> storage -> content -> page). */
export const CONFIG_STORAGE_KEY = 'config'

// page (MAIN world) -> content (isolated world), over the private channel (CHANNEL_EVENT)
export type PageToContent =
  | { readonly source: typeof PAGE_SOURCE; readonly v: number; readonly kind: 'events'; readonly events: readonly PanelEvent[] }
  /** Content -> page messages the page dropped since its last report; the relay adds them to its own. */
  | { readonly source: typeof PAGE_SOURCE; readonly v: number; readonly kind: 'drops'; readonly drops: DropCounts }

// content -> page, over the private channel
export type ContentToPage =
  | { readonly source: typeof CONTENT_SOURCE; readonly v: number; readonly kind: 'config'; readonly config: GuardConfig }
  /** Asks the page to send a `snapshot` event (after the service worker restarted). */
  | { readonly source: typeof CONTENT_SOURCE; readonly v: number; readonly kind: 'resync' }
  /** Zero-code mode's setting for this frame's own origin, from extension storage. */
  | { readonly source: typeof CONTENT_SOURCE; readonly v: number; readonly kind: 'zero-code'; readonly mode: ZeroCodeMode }

/**
 * Why a hop dropped a message; counted per reason and shown in the panel. `source`: tagged as
 * another sender's. `rate`: the tab sent more than its share of the service worker.
 */
export type DropReason = 'source' | 'version' | 'shape' | 'size' | 'sender' | 'rate'

export type DropCounts = Readonly<Partial<Record<DropReason, number>>>

/** What the relay is given to send to the service worker. */
export type ContentReport =
  | { readonly v: number; readonly kind: 'events'; readonly url: string; readonly events: readonly PanelEvent[] }
  /** Drops the relay counted since its last report. */
  | { readonly v: number; readonly kind: 'drops'; readonly drops: DropCounts }

/**
 * A report's place in its relay's stream. A port can close with messages in flight that the worker
 * never read (it was stopping), so the relay holds each message until the worker acknowledges it
 * and sends what a closed port left unacknowledged again; the worker counts a message once.
 */
export interface RelaySequence {
  /** The relay's own random name (one per frame's document): `seq` counts from 1 within it. */
  readonly stream: string
  readonly seq: number
  /** Posted on an earlier port too: the worker before this one may have read it. */
  readonly resent?: true
}

/** The longest `stream` name a relay may use. */
export const MAX_STREAM_CHARS = 64

// content -> background, over the CONTENT_PORT port. The tab comes from port.sender, never from here.
export type ContentToBackground = ContentReport & RelaySequence

// background -> content, over the CONTENT_PORT port, or to a top frame with no port (wake-top-frame.ts)
/** Asks the relay to have the page re-send a `snapshot` (a panel subscribed to a trimmed or empty history). */
export type BackgroundToContent = { readonly v: number; readonly kind: 'resync' }

// background -> content, over the CONTENT_PORT port only
export type BackgroundToRelay =
  | BackgroundToContent
  /** The worker handled every message of the port's stream up to `seq` (and stored what it counted). */
  | { readonly v: number; readonly kind: 'ack'; readonly seq: number }

// panel -> background, over the PANEL_PORT port (the sender must be the extension's own panel.html)
export type PanelToBackground = { readonly v: number; readonly kind: 'subscribe'; readonly tabId: number }

/** One batch as recorded for a tab: the frame it came from and its events, in order. */
export interface TabBatch {
  readonly frameId: number
  readonly url: string
  /**
   * The frame's origin as the browser names the relay's port's sender (`null` when opaque: a
   * sandboxed document), added by the service worker; never taken from the page's events.
   */
  readonly origin: string
  readonly events: readonly PanelEvent[]
}

// background -> panel
export type BackgroundToPanel =
  /** Sent once per subscribe: the tab's buffered history (possibly trimmed: `truncated`). */
  | { readonly v: number; readonly kind: 'history'; readonly tabId: number; readonly batches: readonly TabBatch[]; readonly truncated: boolean }
  /** `replayed`: sent again by a relay after a port closed; the panel may have recorded it already. */
  | { readonly v: number; readonly kind: 'batch'; readonly tabId: number; readonly batch: TabBatch; readonly replayed?: true }
  /** Totals of dropped messages for this tab (relay and router), sent whenever they change. */
  | { readonly v: number; readonly kind: 'drops'; readonly tabId: number; readonly drops: DropCounts }

/** What the toolbar action knows of a tab since its last page load (popup <- background). */
export interface TabSummary {
  /** The top frame's URL (secrets already removed by the page), or null before its first batch. */
  readonly pageUrl: string | null
  /** The top frame's origin as the browser names it (`null` when opaque), or null before its first batch. */
  readonly pageOrigin: string | null
  /** The agents seen, oldest first, up to `MAX_SUMMARY_AGENTS`. */
  readonly agents: readonly Pick<AgentDescriptor, 'id' | 'label' | 'kind' | 'reach'>[]
  /** Reminders that reached the model. */
  readonly reminders: number
  /** Reminders zero-code mode only showed (an observed origin, the keep-alive limit). */
  readonly observed: number
}

/** Agents a tab's summary lists at most: enough for the popup, small enough for session storage. */
export const MAX_SUMMARY_AGENTS = 200

// popup -> background, runtime.sendMessage (the sender must be the extension's own popup.html)
export type PopupToBackground = { readonly v: number; readonly kind: 'tab-summary'; readonly tabId: number }

// background -> popup, the reply
export type BackgroundToPopup = { readonly v: number; readonly kind: 'tab-summary'; readonly tabId: number; readonly summary: TabSummary }
