// The page script's end of the private channel to the relay (docs/security.md, "The channel
// between the page script and the relay"). The relay hands over a MessagePort in an event it
// dispatches on this window at document_start, while no page script exists yet; the first offer is
// taken and the listener removed within that dispatch, so an offer a page script dispatches later
// reaches nothing. From then on the two talk over the port alone: nothing goes over the window,
// where any script of the page could post or listen.
import { CHANNEL_EVENT } from '../protocol/messages.ts'

/** Posts to the relay; without a port (no relay offered one) the message goes nowhere. */
export type ToRelay = (message: unknown) => void

/**
 * Listens for the relay's offer; hands each message the relay sends to `receive`. What `receive`
 * throws goes to `onError`, never into the page's error handlers.
 */
export function awaitRelayChannel(win: Window, receive: (data: unknown) => void, onError: (error: unknown) => void): ToRelay {
  let post: ToRelay | undefined
  const { getOwnPropertyDescriptor, getPrototypeOf } = Object
  const call = Function.prototype.call.bind(Function.prototype.call) as <T>(fn: () => T, self: unknown) => T

  function take(event: Event): void {
    // Whatever this offer holds, it is the only one ever taken.
    win.removeEventListener(CHANNEL_EVENT, take)
    // Everything here runs within the relay's dispatch, before any page script could replace what
    // it calls: the port's own methods, the `data` accessor its messages are read with.
    const port = (event as MessageEvent).ports[0]
    if (port === undefined) return
    const dataGetter = getOwnPropertyDescriptor(getPrototypeOf(event) as object, 'data')?.get
    const dataOf = (message: MessageEvent): unknown => (dataGetter ? call(dataGetter, message) : message.data)
    post = port.postMessage.bind(port)
    port.onmessage = (message) => {
      try {
        receive(dataOf(message))
      } catch (error) {
        try {
          onError(error)
        } catch {
          // Nothing left to report with.
        }
      }
    }
  }

  win.addEventListener(CHANNEL_EVENT, take)
  return (message) => {
    if (post) post(message)
  }
}
