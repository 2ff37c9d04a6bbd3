// A panel subscribed to this tab and the worker asks its top frame to report (outside any port). A
// page that never had anything to say reports now (its load, its config, no agent); one with an
// open port got the same request over it.
import { PROTOCOL_VERSION } from '../protocol/events.ts'
import { CONTENT_SOURCE, type ContentToPage } from '../protocol/messages.ts'
import { checkBackgroundToContent } from '../protocol/validate.ts'
import type { Bridge } from './bridge.ts'

export function wakePage(message: unknown, bridge: Bridge | undefined, toPage: (message: ContentToPage) => void): void {
  if (bridge?.connected || !checkBackgroundToContent(message).ok) return
  toPage({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'resync' })
}
