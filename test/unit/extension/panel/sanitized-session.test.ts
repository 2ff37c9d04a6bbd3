// "Export (sanitized)": no argument, result or fault text leaves in it, everything else does, and
// it imports as a session whose What-if replays the calls by their hashes.
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfigInput } from '../../../../engine/index.ts'
import { createPanelStore, type PanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { sanitizedSession } from '../../../../extension/src/panel/store/sanitized-session.ts'
import { createTextSanitizer, isStandIn } from '../../../../extension/src/panel/store/sanitize-text.ts'
import { LIMITS, type PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { pageLoad, recordingPage, repeat } from './support/recorded-session.ts'
import { callEvent } from '../support/samples.ts'

const SECRET = 'sk-live-0123456789abcdefSECRET'
const CONFIG: GuardConfigInput = { ...RECOMMENDED_CONFIG, resultAware: true, cycles: { maxPeriod: 2, repeats: 2 } }

/** Runs that quote a secret in their arguments, their results and their reminders; a cycle; a fault. */
function recorded(): PanelStore {
  const store = createPanelStore()
  store.ingest(pageLoad())
  const page = recordingPage(CONFIG)
  const lead = { name: 'lead' }
  for (let i = 0; i < 5; i++) page.guard.observe({ agent: lead, name: 'fetch_url', arguments: { url: `https://api.example/?key=${SECRET}` } }, { content: `token ${SECRET}` })
  for (let i = 0; i < 4; i++) page.guard.observe({ agent: lead, name: i % 2 ? 'read' : 'write', arguments: { body: `${SECRET}-${i % 2}` } })
  repeat(page, { name: 'helper', parent: lead }, 'login', { password: SECRET }, 1)
  store.ingest(page.batch())
  store.ingest({
    frameId: 0,
    url: 'u',
    events: [
      { type: 'fault', at: 9, message: `TypeError: bad ${SECRET}` },
      { type: 'config', at: 9, config: page.guard.config },
    ],
  })
  return store
}

const rows = (store: PanelStore): PanelEvent[] => {
  const view = store.timeline(null)
  return Array.from({ length: view.end - view.start }, (_, i) => view.event(view.start + i)!)
}

describe('the sanitized export', () => {
  it('holds no argument, result, quoted argument or fault text; the export with arguments holds them all', () => {
    const store = recorded()
    const sanitized = store.exportSession('sanitized')
    expect(sanitized.includes('sk-live')).toBe(false)
    const full = store.exportSession('with-arguments')
    expect(full).toBe(store.exportSession())
    for (const where of ['"args":"{\\"url\\"', '"result":"token sk-live', '- arguments: {\\"url\\"', 'TypeError: bad sk-live', '"args":"{\\"password\\"'])
      expect(full.includes(where), where).toBe(true)
  })

  it('keeps what is not an argument: tools, labels, counts, levels, the config, and the reminder text around the quote', () => {
    const store = recorded()
    const file = JSON.parse(store.exportSession('sanitized'))
    expect(file.sanitized).toBe(true)
    expect(file.config).toEqual(store.config())
    expect(file.agents.map((a: { descriptor: { label: string } }) => a.descriptor.label)).toEqual(['lead', 'helper'])
    const events: PanelEvent[] = file.entries.map((e: { event: PanelEvent }) => e.event)
    const calls = events.filter((e) => e.type === 'call')
    expect(calls.map((c) => c.tool)).toEqual([...Array(5).fill('fetch_url'), 'write', 'read', 'write', 'read', 'login'])
    for (const c of calls) {
      expect(c.args).toMatch(/^\[sanitized: \d+ chars, hash [0-9a-f]{16}\]$/)
      expect(c.argsLength).toBe(c.args.length)
    }
    expect(calls[0]!.result).toMatch(/^\[sanitized: \d+ chars, hash [0-9a-f]{16}\]$/)
    const detailed = events.find((e) => e.type === 'reminder' && e.level === 'detailed') as Extract<PanelEvent, { type: 'reminder' }>
    expect(detailed.text).toMatch(
      /^Repeated tool call detected:\n- tool: fetch_url\n- consecutive_calls: 5\n- arguments: \[sanitized: \d+ chars, hash [0-9a-f]{16}\]\nThe repeated calls are not making progress\./,
    )
    const cycle = events.find((e) => e.type === 'reminder' && e.level === 'cycle') as Extract<PanelEvent, { type: 'reminder' }>
    expect(cycle.text).toMatch(/^Repeated cycle of tool calls detected:\n- cycle: write -> read\n\[sanitized: \d+ chars, hash [0-9a-f]{16}\]$/)
    expect(file.faults[0].message).toMatch(/^\[sanitized: \d+ chars, hash [0-9a-f]{16}\]$/)
  })

  it('gives equal texts equal stand-ins within a file, and other ones in another file (a key of its own, never written)', () => {
    const store = recorded()
    const argsOf = (text: string) => (JSON.parse(text).entries as { event: PanelEvent }[]).flatMap(({ event }) => (event.type === 'call' ? [event.args] : []))
    const first = argsOf(store.exportSession('sanitized'))
    expect(new Set(first.slice(0, 5)).size).toBe(1)
    expect(first[5]).not.toBe(first[6])
    expect(first[5]).toBe(first[7])
    expect(argsOf(store.exportSession('sanitized'))[0]).not.toBe(first[0])
    // The same key gives the same stand-in: the hash is of the text, and only of it.
    const key = new Uint8Array(32).fill(7)
    expect(createTextSanitizer(key)(SECRET)).toBe(createTextSanitizer(key)(SECRET))
    expect(createTextSanitizer(key)(SECRET)).toBe(`[sanitized: ${SECRET.length} chars, hash ${createTextSanitizer(key)(SECRET).slice(-17, -1)}]`)
    expect(createTextSanitizer(key)(SECRET)).not.toBe(createTextSanitizer(new Uint8Array(32).fill(8))(SECRET))
  })

  it('says the true length of a text the panel received cut, and stays a valid event', () => {
    const store = createPanelStore()
    const page = recordingPage({ ...RECOMMENDED_CONFIG, resultAware: true })
    page.guard.observe({ agent: {}, name: 'write', arguments: { body: 'b'.repeat(10_000) } }, { content: 'r'.repeat(LIMITS.result + 5) })
    store.ingest(page.batch())
    const call = JSON.parse(store.exportSession('sanitized')).entries[0].event
    expect(call.args).toMatch(/^\[sanitized: 10011 chars, hash /)
    expect(call.result).toMatch(new RegExp(`^\\[sanitized: ${LIMITS.result + 5} chars, hash `))
    expect(call).not.toHaveProperty('resultLength')
    expect(createPanelStore().importSession(store.exportSession('sanitized'))).toMatchObject({ ok: true })
  })

  it('of a store at its budget, leaves out the oldest rows its stand-ins have no room for, says so, and imports exactly', () => {
    const store = createPanelStore({ maxBytes: 64 * 1024 })
    // Arguments of two characters: each stand-in is twenty times as long.
    const calls = Array.from({ length: 400 }, (_, i): PanelEvent => callEvent({ at: i, seq: i + 1, tool: 't', args: '{}' }))
    store.ingest({ frameId: 0, url: 'u', events: calls })
    const held = store.stats()
    expect(held.bytes).toBeGreaterThan(60 * 1024)
    const text = store.exportSession('sanitized')
    const file = JSON.parse(text)
    expect(file.entries.length).toBeLessThan(held.entries)
    expect(file.entries.at(-1).event.seq).toBe(400)
    expect(file.discarded).toBe(held.discarded + held.entries - file.entries.length)
    const copy = createPanelStore({ maxBytes: 64 * 1024 })
    expect(copy.importSession(text)).toMatchObject({ ok: true })
    expect(copy.exportSession('sanitized') === text).toBe(true)
  })

  it('is sanitized once: a sanitized session sanitized again is the same file', () => {
    const file = recorded().session()
    const once = sanitizedSession(file).file
    expect(sanitizedSession(once).file).toEqual(once)
    expect(sanitizedSession(once).growth).toBe(0)
  })
})

describe('a sanitized session imported', () => {
  it('shows the rows with their stand-ins, marks the cycle, and exports again as the same file', () => {
    const file = recorded().exportSession('sanitized')
    const store = createPanelStore()
    const result = store.importSession(file)
    expect(result).toMatchObject({ ok: true, session: { sanitized: true } })
    expect(store.sanitized).toBe(true)
    const calls = rows(store).filter((e) => e.type === 'call')
    expect(calls).toHaveLength(10)
    expect(calls.every((c) => isStandIn(c.args))).toBe(true)
    const entries = [...Array(store.timeline(null).end).keys()].map((n) => store.timeline(null).entry(n)!).filter((e) => e.event.type === 'call')
    expect(entries.filter((e) => store.inCycle(e)).map((e) => e.event.type === 'call' && e.event.tool)).toEqual(['write', 'read', 'write', 'read'])
    expect(
      store
        .agents()
        .map((r) => r.record.args)
        .every((args) => args === undefined || isStandIn(args)),
    ).toBe(true)
    expect(store.exportSession('sanitized')).toBe(file)
    expect(store.exportSession('with-arguments')).toBe(file)
    store.backToLive()
    expect(store.sanitized).toBe(false)
  })

  it('replays by the hashes: the same reminders as the session it came from, under any config', () => {
    const original = recorded()
    const store = createPanelStore()
    store.importSession(original.exportSession('sanitized'))
    const outline = (report: ReturnType<PanelStore['whatIf']>) => report.rows.map((r) => [r.agent, r.seq, r.change, r.recorded?.level, r.recorded?.count, r.replayed?.level, r.replayed?.count])
    for (const config of [CONFIG, { ...CONFIG, thresholds: [2, 3] }, { ...RECOMMENDED_CONFIG }, { ...CONFIG, resultAware: false }]) {
      const sanitized = store.whatIf(resolveConfig(config))
      expect(sanitized.sanitized).toBe(true)
      expect(outline(sanitized)).toEqual(outline(original.whatIf(resolveConfig(config))))
    }
    // Under the recorded config, every reminder is the same (compared by level and count: texts quote arguments).
    expect(store.whatIf(resolveConfig(CONFIG)).totals).toMatchObject({ changed: 0, added: 0, removed: 0 })
    expect(original.whatIf(resolveConfig(CONFIG)).sanitized).toBe(false)
  })
})
