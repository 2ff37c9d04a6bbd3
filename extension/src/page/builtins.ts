// The built-ins the page script relies on, captured at document_start before any page script can
// replace them: a page that later patches postMessage or addEventListener neither sees nor
// breaks the bridge (it can still read the events it posts: the MAIN world is the page's).

export interface PageBuiltins {
  /** Posts to this window only (content scripts listen on the same window). */
  readonly post: (message: unknown) => void
  /**
   * Listens for window messages, handing over the sender and the data. What the listener throws
   * goes to `onError`, never into the page's event dispatch (and its error handlers).
   */
  readonly onMessage: (listener: (source: unknown, data: unknown) => void, onError: (error: unknown) => void) => void
  readonly now: () => number
  readonly microtask: (run: () => void) => void
  readonly later: (run: () => void, ms: number) => void
}

export function captureBuiltins(win: Window & typeof globalThis): PageBuiltins {
  const postMessage = win.postMessage.bind(win)
  const addEventListener = win.addEventListener.bind(win)
  const call = Function.prototype.call.bind(Function.prototype.call) as <T>(fn: () => T, self: unknown) => T
  const { getOwnPropertyDescriptor } = Object
  // The native accessors of MessageEvent, read by the first message the window receives, not at
  // document_start: the first touch of an interface costs every frame, and a frame that is never
  // sent a message never needs them. An engine that keeps these as own fields, or a page that put
  // something else in `MessageEvent`'s place before its first message, has them read off the event.
  const reader = (prototype: object, key: 'data' | 'source') => {
    const get = getOwnPropertyDescriptor(prototype, key)?.get
    return (event: MessageEvent): unknown => (get ? call(get, event) : event[key])
  }
  const readersOf = (constructor: unknown) => {
    try {
      const prototype: unknown = typeof constructor === 'function' ? constructor.prototype : undefined
      if (typeof prototype === 'object' && prototype !== null) return { dataOf: reader(prototype, 'data'), sourceOf: reader(prototype, 'source') }
    } catch {
      // A proxy in its place: the fields below.
    }
    return { dataOf: (event: MessageEvent): unknown => event.data, sourceOf: (event: MessageEvent): unknown => event.source }
  }
  let readers: ReturnType<typeof readersOf> | undefined
  const dateNow = win.Date.now.bind(win.Date)
  const queueMicrotask = win.queueMicrotask.bind(win)
  const setTimeout = win.setTimeout.bind(win)
  return {
    post: (message) => postMessage(message, '*'),
    onMessage: (listener, onError) =>
      addEventListener('message', (event: MessageEvent) => {
        try {
          const { sourceOf, dataOf } = (readers ??= readersOf(win.MessageEvent))
          listener(sourceOf(event), dataOf(event))
        } catch (error) {
          try {
            onError(error)
          } catch {
            // Nothing left to report with.
          }
        }
      }),
    now: dateNow,
    microtask: queueMicrotask,
    later: (run, ms) => void setTimeout(run, ms),
  }
}
