// The relay's end of the private channel to the page script (docs/security.md, "The channel
// between the page script and the relay"). At document_start, before any page script exists, the
// relay makes a MessageChannel and hands one port to the page script, which listens already (it
// runs first) and takes the first offer only, within this dispatch. No page script can reach
// either port: the page can neither post on the channel nor listen to it. If the page script was
// not there to take it, the offer is lost and nothing ever arrives.
import { CHANNEL_EVENT, type ContentToPage } from '../protocol/messages.ts'

export interface PageChannel {
  readonly post: (message: ContentToPage) => void
  /** No more messages either way (the extension context is gone). */
  readonly close: () => void
}

/** `receive` gets each message the page script sends, unchecked. */
export function offerPageChannel(receive: (data: unknown) => void): PageChannel {
  const { port1, port2 } = new MessageChannel()
  port1.onmessage = (event) => receive(event.data)
  window.dispatchEvent(new MessageEvent(CHANNEL_EVENT, { ports: [port2] }))
  return {
    post: (message) => port1.postMessage(message),
    close: () => port1.close(),
  }
}
