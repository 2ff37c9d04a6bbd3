// The panel's own defence: whatever reaches it, a key in a URL never shows or leaves in an export.
import { describe, expect, it } from 'vitest'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import type { PanelEvent } from '../../../../extension/src/protocol/events.ts'

const SECRET = 'AIzaSy-not-for-the-panel'
const PAGE = `https://app.example/chat?session=${SECRET}#access_token=${SECRET}`
const GEMINI = `https://generativelanguage.googleapis.com/v1beta/models/gemini:generateContent?key=${SECRET}`

const events: PanelEvent[] = [
  { type: 'page-load', at: 1, url: PAGE },
  { type: 'agent', at: 2, agent: { id: 'wire:1', kind: 'wire', label: 'agent', format: 'gemini' } },
  { type: 'request', at: 3, agentId: 'wire:1', url: GEMINI, format: 'gemini', calls: 1, remindersInserted: 0, rewritten: false },
]

describe('URLs the panel takes in are redacted', () => {
  it('from a forged live batch: the page URL, the batch URL and request URLs', () => {
    const store = createPanelStore()
    store.ingest({ frameId: 0, url: PAGE, events })
    store.ingest({ frameId: 3, url: `https://frame.example/?token=${SECRET}`, events: [events[2]!] })
    expect(store.pageUrl()).toBe('https://app.example/chat?session=REDACTED')
    const exported = store.exportSession()
    expect(exported).not.toContain(SECRET)
    expect(exported).toContain('gemini:generateContent?key=REDACTED')
    expect(exported).toContain('https://frame.example/?token=REDACTED')
  })

  it('from a history, and from an imported session file written elsewhere', () => {
    const store = createPanelStore()
    store.ingestHistory([{ frameId: 0, url: PAGE, events }], false)
    expect(store.exportSession()).not.toContain(SECRET)
    // A file holding secrets (an older version's export, or hand-made) loses them on the way in.
    const file = JSON.parse(store.exportSession())
    file.frames[0].url = PAGE
    file.entries.find((e: { event: PanelEvent }) => e.event.type === 'request').event.url = GEMINI
    const other = createPanelStore()
    expect(other.importSession(JSON.stringify(file))).toMatchObject({ ok: true })
    expect(other.pageUrl()).toBe('https://app.example/chat?session=REDACTED')
    expect(other.exportSession()).not.toContain(SECRET)
    const view = other.timeline(null)
    const shown = Array.from({ length: view.end - view.start }, (_, i) => view.entry(view.start + i))
    expect(shown.map((row) => row.event.type)).toEqual(['page-load', 'request'])
    expect(JSON.stringify(shown)).not.toContain(SECRET)
  })
})
