// One tab for the tests of the page script and the content relay together on one window, as Chrome
// runs them: a worker port that checks and acknowledges what the relay sends, as the router does,
// and the private channel between the two scripts as Chrome makes it. A page script installs once per window, so each test file
// is one tab (Vitest gives every file a window of its own): such a file mocks the modules below
// with `tabModules` and calls `useContentTab()`.
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest'
import { PROTOCOL_VERSION, type PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ContentToBackground, DropCounts } from '../../../../../extension/src/protocol/messages.ts'
import { checkContentToBackground } from '../../../../../extension/src/protocol/validate.ts'
import { FakeMessageChannel } from '../../support/fake-message-channel.ts'

/** One runtime.Port of the relay; `stop` is Chrome closing it when it stops the service worker. */
export class WorkerPort {
  readonly posted: ContentToBackground[] = []
  /** The router's reason for each message it would refuse: asserted after each test, as a throw here would be swallowed by the relay's try/catch. */
  readonly refused: string[] = []
  private stopped = false
  /** False: the worker reads nothing more (it is being stopped), so it acknowledges nothing more. */
  acknowledging = true
  private readonly messageListeners: ((message: unknown) => void)[] = []
  private readonly disconnectListeners: (() => void)[] = []
  readonly onMessage = { addListener: (l: (message: unknown) => void) => void this.messageListeners.push(l) }
  readonly onDisconnect = { addListener: (l: () => void) => void this.disconnectListeners.push(l) }
  postMessage(message: ContentToBackground): void {
    // Ports carry JSON: what the worker gets is a copy, checked as the router checks it.
    const copy = JSON.parse(JSON.stringify(message)) as unknown
    const checked = checkContentToBackground(copy)
    if (!checked.ok) this.refused.push(`${checked.reason}: ${checked.detail}`)
    this.posted.push(copy as ContentToBackground)
    // Handled: acknowledged in a later task, as the router does, unless the worker stopped meanwhile.
    if (checked.ok && this.acknowledging) setTimeout(() => this.stopped || this.receive({ v: PROTOCOL_VERSION, kind: 'ack', seq: checked.value.seq }), 0)
  }
  /** The worker sends `message` to the relay. */
  receive(message: unknown): void {
    for (const l of this.messageListeners) l(message)
  }
  stop(): void {
    this.stopped = true
    for (const l of this.disconnectListeners) l()
  }
  /** The panel events this port carried. */
  events(): PanelEvent[] {
    return this.posted.flatMap((m) => (m.kind === 'events' ? m.events : []))
  }
}

/** The tab's ports, in the order the relay opened them; the listeners for what the worker sends outside any port; storage reads. */
export const tab = {
  ports: [] as WorkerPort[],
  outside: [] as ((message: unknown) => void)[],
  storageReads: 0,
}

/** What the test files mock: `vi.mock(path, async () => (await import('./support/content-tab.ts')).tabModules[path])`. */
export const tabModules = {
  'webextension-polyfill': {
    default: {
      runtime: { connect: () => tab.ports[tab.ports.push(new WorkerPort()) - 1] },
      storage: {
        local: { get: async () => (tab.storageReads++, {}) },
        onChanged: { addListener: () => {} },
      },
    },
  },
  // happy-dom's Request has no accessors for the interceptor to capture (it would report a fault):
  // zero-code mode is tested on its own, here it installs and has no wire agents.
  fetchInstall: { installFetchInterceptor: () => ({ snapshot: () => [] }) },
}

export const sent = () => tab.ports.flatMap((p) => p.posted)
export const sentEvents = () => tab.ports.flatMap((p) => p.events())
export const sentDrops = () =>
  sent().reduce<Record<string, number>>((sum, m) => {
    if (m.kind === 'drops') for (const [reason, n] of Object.entries(m.drops as DropCounts)) sum[reason] = (sum[reason] ?? 0) + n
    return sum
  }, {})

/** A message on the window from `source` (the page's own window unless told otherwise), as a page script may post one. */
export const deliver = (data: unknown, source: unknown = window) => window.dispatchEvent(new MessageEvent('message', { data, source: source as Window }))

/** The channel the relay made and offered the page script (port1 the relay's end, port2 the page script's). */
export const channel = () => FakeMessageChannel.made[0]!

/** Tells the top frame's relay `message` from the worker, outside any port (tabs.sendMessage). */
export const tellTopFrame = (message: unknown) => tab.outside.forEach((listener) => listener(message))

/** Loads both scripts on this file's window before its test, and checks the router refused nothing after it. */
export function useContentTab(): void {
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    // The start-up half listens with Chrome's own API; the on-demand half uses the polyfill (above).
    vi.stubGlobal('chrome', { runtime: { onMessage: { addListener: (l: (message: unknown) => void) => void tab.outside.push(l) } } })
    // happy-dom has no MessageChannel: one that clones and delivers in a later task, as Chrome's does.
    vi.stubGlobal('MessageChannel', FakeMessageChannel)
    // The page script first, as the manifest orders them: it listens when the relay offers the channel.
    await import('../../../../../extension/src/page/index.ts')
    await import('../../../../../extension/src/content/index.ts')
  })

  afterEach(() => {
    expect(tab.ports.flatMap((p) => p.refused.splice(0))).toEqual([])
  })

  afterAll(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })
}
