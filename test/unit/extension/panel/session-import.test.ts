import { describe, expect, it, vi } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { LIMITS, PROTOCOL_VERSION } from '../../../../extension/src/protocol/events.ts'
import { connectPanel, type PanelConnectionOptions } from '../../../../extension/src/panel/host/panel-connection.ts'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { maxSessionBytes, sessionSizeError } from '../../../../extension/src/panel/store/session-size.ts'
import { pageLoad, recordingPage, repeat } from './support/recorded-session.ts'

/** A session with a subagent, a reminder, a fault and the page's config. */
function recorded(): PanelStore {
  const store = createPanelStore()
  store.ingest(pageLoad())
  const page = recordingPage()
  const lead = { name: 'lead' }
  repeat(page, lead, 'grep', { q: 'x' }, 3)
  repeat(page, { name: 'helper', parent: lead }, 'read', 'f', 1)
  store.ingest(page.batch())
  store.ingest({
    frameId: 0,
    url: 'u',
    events: [
      { type: 'fault', at: 5, message: 'boom' },
      { type: 'config', at: 6, config: page.guard.config },
    ],
  })
  return store
}

const errorsOf = (store: PanelStore, session: unknown): readonly string[] => {
  const result = store.importSession(JSON.stringify(session))
  return result.ok ? [] : result.errors
}

describe('session import: caps', () => {
  it('refuses a file over the size cap before parsing it, and keeps the current session', () => {
    const store = recorded()
    const before = store.exportSession()
    // The default budget's cap: three bytes of file for each byte of budget, and room for the file's own fields.
    const cap = maxSessionBytes(64 * 1024 * 1024)
    expect(cap).toBe(192 * 1024 * 1024 + 4 * 1024)
    // Only the text's length is read before refusing it: a stand-in spares the test 192 MB of spaces.
    const result = store.importSession({ length: cap + 1 } as string)
    expect(result).toEqual({ ok: false, errors: ['The file is 193 MB: this panel opens session files up to 192 MB.'] })
    expect(store.exportSession()).toBe(before)
    expect(sessionSizeError(cap, store.maxBytes)).toBeUndefined()
    // A smaller budget, a smaller cap.
    expect(sessionSizeError(3 * 1024 * 1024 + 4 * 1024 + 1, 1024 * 1024)).toBe('The file is 4 MB: this panel opens session files up to 3 MB.')
  })

  it('caps every text field as the live protocol caps it', () => {
    const text = recorded().exportSession()
    const cases: [(s: Record<string, Record<string, unknown>[]>) => void, RegExp][] = [
      [(s) => (s.frames[0].url = 'u'.repeat(LIMITS.url + 1)), /^session\.frames\[0\] is not a valid event: .*longer than 2048/],
      [(s) => (s.faults[0].message = 'm'.repeat(LIMITS.text + 1)), /^session\.faults\[0\] is not a valid event: .*longer than 65536/],
      [(s) => (s.agents[0].args = 'a'.repeat(LIMITS.args + 1)), /^session\.agents\[0\] is not a valid event: .*args is longer than 4000/],
      [(s) => (s.agents[0].tool = 't'.repeat(LIMITS.toolName + 1)), /^session\.agents\[0\] is not a valid event: .*tool is longer than 256/],
      [(s) => (s.agents[1].parentKey = 'p'.repeat(100_000)), /^session\.agents\[1\]\.parentKey must be "0\.0:hook:1"/],
      [(s) => (s.agents[0].parentKey = '0.0:hook:2'), /^session\.agents\[0\]\.parentKey must be absent/],
      [(s) => (s.faults[0].at = -1), /^session\.faults\[0\] is not a valid event: event\.at must be a timestamp/],
    ]
    for (const [mutate, expected] of cases) {
      const session = JSON.parse(text)
      mutate(session)
      const store = createPanelStore()
      expect(errorsOf(store, session)).toEqual([expect.stringMatching(expected)])
      expect(store.stats().entries).toBe(0)
    }
  })

  it('still round-trips a valid session exactly', () => {
    const text = recorded().exportSession()
    const copy = createPanelStore()
    expect(copy.importSession(text)).toMatchObject({ ok: true })
    expect(copy.exportSession()).toBe(text)
  })
})

describe('an imported session', () => {
  it('is never wiped or mixed by live events: a page load, a forged one, calls, config, drops', () => {
    const text = recorded().exportSession()
    const store = createPanelStore()
    store.importSession(text)
    expect(store.imported).toBe(true)
    const live = recordingPage({ thresholds: [2] })
    repeat(live, { name: 'live' }, 'write', 1, 4)
    store.ingest(pageLoad('http://127.0.0.1/reloaded.html'))
    store.ingest(live.batch())
    store.ingest({
      frameId: 0,
      url: 'u',
      events: [
        { type: 'page-load', at: 1, url: 'http://forged/' },
        { type: 'config', at: 2, config: { ...RECOMMENDED_CONFIG, thresholds: [9] } },
      ],
    })
    store.ingestHistory([pageLoad()], true)
    store.setDrops({ shape: 99 })
    store.countDrop('size')
    // not recording live calls is not enough: nothing at all changed
    store.setPaused(false)
    store.ingest(pageLoad())
    expect(store.exportSession()).toBe(text)
    expect(store.stats().setAside).toBeGreaterThan(0)
  })

  it('goes back to live with Back to live or Clear: empty, recording, and live again', () => {
    for (const leave of [(s: PanelStore) => s.backToLive(), (s: PanelStore) => s.clear()]) {
      const store = createPanelStore()
      const seenLive = pageLoad('http://127.0.0.1/live.html')
      store.ingest(seenLive)
      store.importSession(recorded().exportSession())
      leave(store)
      expect(store).toMatchObject({ imported: false, paused: false })
      expect(store.stats()).toMatchObject({ entries: 0, calls: 0, setAside: 0 })
      expect(store.agents()).toEqual([])
      expect(store.config()).toBeUndefined()
      expect(store.drops()).toEqual({})
      // what was seen before the import is new again after it: the history is taken whole
      store.ingestHistory([seenLive], false, { replayed: true })
      expect(store.timeline(null).event(store.timeline(null).start)).toMatchObject({ type: 'page-load', url: 'http://127.0.0.1/live.html' })
    }
  })
})

describe('the panel connection after an import', () => {
  it('subscribes again when the user goes back to live, and records the history it gets', () => {
    const posted: unknown[] = []
    const listeners: ((m: unknown) => void)[] = []
    const port = {
      postMessage: (m: unknown) => posted.push(m),
      onMessage: { addListener: (l: (m: unknown) => void) => listeners.push(l) },
      onDisconnect: { addListener: vi.fn() },
      disconnect: vi.fn(),
    }
    const runtime = { connect: () => port } as unknown as PanelConnectionOptions['runtime']
    const store = createPanelStore()
    const connection = connectPanel({ tabId: 3, store, runtime })
    const subscribe = { v: PROTOCOL_VERSION, kind: 'subscribe', tabId: 3 }
    expect(posted).toEqual([subscribe])
    store.importSession(recorded().exportSession())
    store.setFilter({ tool: null, text: 'x' })
    expect(posted).toHaveLength(1)
    store.backToLive()
    expect(posted).toEqual([subscribe, subscribe])
    const page = recordingPage()
    repeat(page, { name: 'a' }, 'grep', 1, 2)
    for (const l of listeners) l({ v: PROTOCOL_VERSION, kind: 'history', tabId: 3, batches: [page.batch()], truncated: false })
    expect(store.stats()).toMatchObject({ entries: 2, calls: 2 })
    connection.close()
  })
})
