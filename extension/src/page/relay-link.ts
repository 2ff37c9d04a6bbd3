// The page's side of the private channel to the content relay (relay-channel.ts). Nothing is posted until the page has
// something to say (an agent's first event, a fault, a resync): the relay, and the service worker
// behind it, stay untouched by pages that never run an agent. The first batch then opens with the
// page's load, as captured at document_start, and the config in force. Everything is set up at
// document_start all the same (it costs next to nothing): whatever the page replaces later, the
// first batch goes out as any other.
import { headOf } from '../../../engine/safe-reading.ts'
import type { GuardConfig } from '../../../engine/index.ts'
import { LIMITS, PROTOCOL_VERSION, type PanelEvent } from '../protocol/events.ts'
import { PAGE_SOURCE, type PageToContent } from '../protocol/messages.ts'
import { createBatcher } from './batcher.ts'
import type { PageBuiltins } from './builtins.ts'
import type { ToRelay } from './relay-channel.ts'

interface RelayLinkOptions {
  readonly builtins: PageBuiltins
  readonly toRelay: ToRelay
  /**
   * When and where the page loaded, reported with the first batch: taken at `document_start`, the URL
   * redacted then (redactUrl), with the built-ins the page had not yet replaced.
   */
  readonly loadedAt: number
  readonly url: string
  /** The config in force, reported with the first batch. */
  readonly config: () => GuardConfig
}

interface RelayLink {
  push(event: PanelEvent): void
  /** A fault of the page script, shown in the panel. */
  fault(message: string): void
}

export function createRelayLink({ builtins, toRelay, loadedAt, url, config }: RelayLinkOptions): RelayLink {
  const batcher = createBatcher({
    send: (events) => toRelay({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'events', events } satisfies PageToContent),
    now: builtins.now,
    microtask: builtins.microtask,
    later: builtins.later,
  })
  const pageLoad: PanelEvent = { type: 'page-load', at: loadedAt, url: headOf(url, LIMITS.url) }
  let spoken = false

  function push(event: PanelEvent): void {
    if (!spoken) {
      spoken = true
      batcher.push(pageLoad)
      batcher.push({ type: 'config', at: builtins.now(), config: config() })
    }
    batcher.push(event)
  }
  return {
    push,
    fault: (message) => push({ type: 'fault', at: builtins.now(), message: headOf(message, LIMITS.text) }),
  }
}
