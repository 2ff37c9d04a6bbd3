import { describe, expect, it } from 'vitest'
import { LIMITS } from '../../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE, PAGE_SOURCE } from '../../../../extension/src/protocol/messages.ts'
import {
  checkBackgroundToContent,
  checkBackgroundToRelay,
  checkBackgroundToPanel,
  checkContentToBackground,
  checkContentToPage,
  checkInspectorEvent,
  checkPageToContent,
  checkPanelToBackground,
} from '../../../../extension/src/protocol/validate.ts'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { WIRE_FORMATS } from '../../../../engine/wire/types.ts'
import { call, EVENTS, pageBatch, tabBatch, v } from '../support/samples.ts'

const reason = (checked: { ok: boolean; reason?: string }) => (checked.ok ? 'ok' : checked.reason)

describe('inspector events', () => {
  it.each(Object.entries(EVENTS))('accepts a well-formed %s event', (_type, event) => {
    expect(checkInspectorEvent(event)).toEqual({ ok: true, value: event })
  })

  it('accepts every wire format the engine knows, on agents and requests', () => {
    for (const format of WIRE_FORMATS) {
      expect(reason(checkInspectorEvent({ ...EVENTS.request, format }))).toBe('ok')
      expect(reason(checkInspectorEvent({ ...EVENTS.agent, agent: { id: 'wire:1', kind: 'wire', label: 'x', format } }))).toBe('ok')
    }
  })

  it('accepts the WebMCP agent (id webmcp:<n>, kind and reach webmcp) and its reminders withheld for want of a content list', () => {
    expect(reason(checkInspectorEvent({ ...EVENTS.agent, agent: { id: 'webmcp:1', kind: 'webmcp', label: 'WebMCP tools', reach: 'webmcp' } }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...EVENTS.reminder, agentId: 'webmcp:1', placement: 'content', withheld: 'no-content' }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...EVENTS.call, agentId: 'webmcp:1' }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...EVENTS.call, agentId: 'mcp:1' }))).toBe('shape')
  })

  it('accepts a blocked event marked as would-block (zero-code mode), and the mark only as true', () => {
    expect(reason(checkInspectorEvent({ ...EVENTS.blocked, agentId: 'wire:1', wouldBlock: true }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...EVENTS.blocked, wouldBlock: false }))).toBe('shape')
    expect(reason(checkInspectorEvent({ ...EVENTS.blocked, wouldBlock: 'yes' }))).toBe('shape')
  })

  it('accepts reminders and requests withheld by the origin setting or the keep-alive limit, and nothing contradictory', () => {
    for (const withheld of ['observe', 'keepalive-limit']) {
      expect(reason(checkInspectorEvent({ ...EVENTS.reminder, placement: 'messages[7]', withheld }))).toBe('ok')
      expect(reason(checkInspectorEvent({ ...EVENTS.request, rewritten: false, withheld }))).toBe('ok')
    }
    expect(reason(checkInspectorEvent({ ...EVENTS.reminder, placement: 'messages[7]', withheld: 'later' }))).toBe('shape')
    expect(reason(checkInspectorEvent({ ...EVENTS.reminder, placement: undefined, withheld: 'observe' }))).toBe('shape')
    expect(reason(checkInspectorEvent({ ...EVENTS.request, rewritten: true, withheld: 'observe' }))).toBe('shape')
    expect(reason(checkInspectorEvent({ ...EVENTS.request, rewritten: false, withheld: true }))).toBe('shape')
  })

  it('accepts a cut reminder with its true length', () => {
    const cut = { ...EVENTS.reminder, text: 'r'.repeat(LIMITS.text), textLength: LIMITS.text + 1 }
    expect(checkInspectorEvent(cut)).toEqual({ ok: true, value: cut })
  })

  it("accepts the detectors' fields and kinds: cycle reminders, a named detector, result-changed resets", () => {
    for (const detector of ['repeat', 'same-tool', 'cycle']) expect(reason(checkInspectorEvent({ ...EVENTS.reminder, detector }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...EVENTS.reminder, level: 'cycle', detector: 'cycle' }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...EVENTS.reset, reason: 'result-changed' }))).toBe('ok')
  })

  it('accepts a config with every detector on, and a snapshot carrying it', () => {
    const config = {
      ...RECOMMENDED_CONFIG,
      countBy: 'tool',
      resultAware: true,
      ignoreResultKeys: ['timestamp'],
      cycles: { maxPeriod: 3, repeats: 3 },
      stopAfter: 4,
      tools: [{ match: 'scroll_*', thresholds: [6, 10], countBy: 'call', resultAware: false, stopAfter: null }, { match: 'grep' }],
    }
    expect(reason(checkInspectorEvent({ ...EVENTS.config, config }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...EVENTS.snapshot, config }))).toBe('ok')
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'config', config }))).toBe('ok')
  })

  it('accepts an optional field present as undefined (a structured clone keeps it)', () => {
    expect(reason(checkInspectorEvent({ ...EVENTS.reminder, placement: undefined }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...EVENTS.reminder, textLength: undefined }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...EVENTS.reminder, placement: 'messages[7]' }))).toBe('ok')
    expect(reason(checkInspectorEvent({ ...call(), nextThreshold: null }))).toBe('ok')
  })

  it.each([
    ['an unknown type', { ...EVENTS.fault, type: 'explode' }],
    ['a missing field', (({ count: _count, ...rest }) => rest)(call())],
    ['an unknown key', { ...call(), html: '<b>' }],
    ['a wrong type', { ...call(), count: '3' }],
    ['a negative count', { ...call(), count: -1 }],
    ['a fractional seq', { ...call(), seq: 1.5 }],
    ['an infinite time', { ...call(), at: Number.POSITIVE_INFINITY }],
    ['an agent id without its kind', { ...call(), agentId: '1' }],
    ['an empty tool name', { ...call(), tool: '' }],
    ['argsLength below the args carried', { ...call(), argsLength: 3 }],
    ['an unknown reset reason', { ...EVENTS.reset, reason: 'because' }],
    ['an unknown reminder level', { ...EVENTS.reminder, level: 'loud' }],
    ['an unknown detector', { ...EVENTS.reminder, detector: 'vibes' }],
    ['a blocked event without feedback', { ...EVENTS.blocked, feedback: '' }],
    ['a blocked event with a seq', { ...EVENTS.blocked, seq: 4 }],
    ['a blocked event with a fractional count', { ...EVENTS.blocked, count: 2.5 }],
    ['a config with a detector key the engine rejects', { ...EVENTS.config, config: { ...RECOMMENDED_CONFIG, stopAfter: 1 } }],
    ['a config with cycles of a wrong shape', { ...EVENTS.config, config: { ...RECOMMENDED_CONFIG, cycles: { maxPeriod: 3, repeats: 3, extra: 1 } } }],
    ['a config with a tools entry of a wrong shape', { ...EVENTS.config, config: { ...RECOMMENDED_CONFIG, tools: [{ match: 'a', thresholds: ['3'] }] } }],
    ['a config with countBy the engine does not know', { ...EVENTS.config, config: { ...RECOMMENDED_CONFIG, countBy: 'args' } }],
    ['an unknown wire format', { ...EVENTS.request, format: 'soap' }],
    ['a reminder textLength no longer than its text (it is there only when cut)', { ...EVENTS.reminder, textLength: EVENTS.reminder.type === 'reminder' ? EVENTS.reminder.text.length : 0 }],
    ['a fractional reminder textLength', { ...EVENTS.reminder, textLength: 1e5 + 0.5 }],
    ['a reminder textLength as text', { ...EVENTS.reminder, textLength: '100000' }],
    ['an unknown agent kind', { ...EVENTS.agent, agent: { id: 'hook:1', kind: 'robot', label: 'x' } }],
    ['a config the engine rejects', { ...EVENTS.config, config: { ...RECOMMENDED_CONFIG, thresholds: [1] } }],
    ['a config with an unknown key', { ...EVENTS.config, config: { ...RECOMMENDED_CONFIG, threshold: [3] } }],
    ['a partial config', { ...EVENTS.config, config: { thresholds: [3] } }],
    ['a snapshot agent with an unknown key', { ...EVENTS.snapshot, agents: [{ id: 'hook:1', kind: 'hook', label: 'x', count: 0, nextThreshold: 3, extra: 1 }] }],
    ['an array', [call()]],
    ['null', null],
  ])('rejects %s as shape', (_name, event) => {
    expect(reason(checkInspectorEvent(event))).toBe('shape')
  })

  it.each([
    ['a tool name', { ...call(), tool: 't'.repeat(LIMITS.toolName + 1) }],
    ['args', { ...call(), args: 'a'.repeat(LIMITS.args + 1), argsLength: LIMITS.args + 1 }],
    ['a label', { ...EVENTS.agent, agent: { id: 'hook:1', kind: 'hook', label: 'l'.repeat(LIMITS.label + 1) } }],
    ['a reminder text', { ...EVENTS.reminder, text: 'r'.repeat(LIMITS.text + 1) }],
    ['a block feedback', { ...EVENTS.blocked, feedback: 'f'.repeat(LIMITS.text + 1) }],
    ['a blocked tool name', { ...EVENTS.blocked, tool: 't'.repeat(LIMITS.toolName + 1) }],
    ['a url', { ...EVENTS['page-load'], url: 'u'.repeat(LIMITS.url + 1) }],
  ])('rejects %s over its cap as size', (_name, event) => {
    expect(reason(checkInspectorEvent(event))).toBe('size')
  })

  it('accepts fields exactly at their caps', () => {
    expect(reason(checkInspectorEvent({ ...call(), tool: 't'.repeat(LIMITS.toolName), args: 'a'.repeat(LIMITS.args), argsLength: 10 ** 6 }))).toBe('ok')
  })

  it('never throws on exotic input', () => {
    const trap = new Proxy({}, { ownKeys: () => { throw new Error('trap') } })
    expect(reason(checkInspectorEvent(trap))).toBe('shape')
    const getter = Object.defineProperty({ ...call() }, 'tool', { enumerable: true, get: () => { throw new Error('getter') } })
    expect(reason(checkInspectorEvent(getter))).toBe('shape')
    let nested: unknown = []
    for (let i = 0; i < 100_000; i++) nested = [nested]
    expect(reason(checkInspectorEvent(nested))).toBe('shape')
  })
})

describe('page -> content', () => {
  it('accepts a batch of every event type', () => {
    expect(reason(checkPageToContent(pageBatch()))).toBe('ok')
  })

  it('checks tag, then version, then size, then shape', () => {
    expect(reason(checkPageToContent({ ...pageBatch(), source: CONTENT_SOURCE }))).toBe('source')
    expect(reason(checkPageToContent({ ...pageBatch(), v: v + 1 }))).toBe('version')
    expect(reason(checkPageToContent({ ...pageBatch(), v: undefined }))).toBe('version')
    const huge = { ...pageBatch(), v: v + 1, events: [{ ...EVENTS.fault, message: 'x'.repeat(LIMITS.batchBytes) }] }
    expect(reason(checkPageToContent(huge))).toBe('version')
    expect(reason(checkPageToContent({ ...huge, v }))).toBe('size')
    expect(reason(checkPageToContent({ ...pageBatch(), kind: 'config' }))).toBe('shape')
    expect(reason(checkPageToContent({ ...pageBatch(), tabId: 7 }))).toBe('shape')
    expect(reason(checkPageToContent('repeat-tool-guard/page'))).toBe('shape')
  })

  it('caps the events of one batch by count and by bytes', () => {
    const many = Array.from({ length: LIMITS.eventsPerBatch }, () => EVENTS['page-load'])
    expect(reason(checkPageToContent(pageBatch(many)))).toBe('ok')
    expect(reason(checkPageToContent(pageBatch([...many, EVENTS['page-load']])))).toBe('size')
    const big = { ...EVENTS.reminder, text: 'r'.repeat(LIMITS.text) }
    const heavy = Array.from({ length: Math.ceil(LIMITS.batchBytes / LIMITS.text) + 1 }, () => big)
    expect(reason(checkPageToContent(pageBatch(heavy)))).toBe('size')
  })

  it("accepts the page's drop report, exactly", () => {
    const drops = { source: PAGE_SOURCE, v, kind: 'drops', drops: { version: 2, shape: 1 } }
    expect(checkPageToContent(drops)).toEqual({ ok: true, value: drops })
    expect(reason(checkPageToContent({ ...drops, drops: {} }))).toBe('ok')
    expect(reason(checkPageToContent({ ...drops, drops: { mood: 1 } }))).toBe('shape')
    expect(reason(checkPageToContent({ ...drops, drops: { shape: -1 } }))).toBe('shape')
    expect(reason(checkPageToContent({ ...drops, drops: { shape: Number.MAX_SAFE_INTEGER + 2 } }))).toBe('shape')
    expect(reason(checkPageToContent({ ...drops, events: [] }))).toBe('shape')
    expect(reason(checkPageToContent({ source: PAGE_SOURCE, v, kind: 'drops' }))).toBe('shape')
    expect(reason(checkPageToContent({ ...drops, v: v + 1 }))).toBe('version')
    expect(reason(checkPageToContent({ ...drops, source: CONTENT_SOURCE }))).toBe('source')
  })
})

describe('content -> page', () => {
  it('accepts a full config and a resync', () => {
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'config', config: RECOMMENDED_CONFIG }))).toBe('ok')
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'resync' }))).toBe('ok')
  })

  it("accepts zero-code mode's setting for the frame's origin, one of three", () => {
    for (const mode of ['guard', 'observe', 'off']) expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'zero-code', mode }))).toBe('ok')
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'zero-code', mode: 'rewrite' }))).toBe('shape')
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'zero-code' }))).toBe('shape')
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'zero-code', mode: 'guard', origin: 'https://x' }))).toBe('shape')
  })

  it('rejects an invalid config, a foreign tag and an unknown kind', () => {
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'config', config: { ...RECOMMENDED_CONFIG, argumentsPreviewChars: 0 } }))).toBe('shape')
    expect(reason(checkContentToPage({ source: PAGE_SOURCE, v, kind: 'resync' }))).toBe('source')
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'reload' }))).toBe('shape')
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'resync', extra: true }))).toBe('shape')
  })
})

describe('content -> background', () => {
  const numbered = { stream: 'a1b2', seq: 7 }

  it('accepts events with the page url, and drop reports, each numbered in its stream', () => {
    expect(reason(checkContentToBackground({ v, kind: 'events', url: 'http://x/', events: [call()], ...numbered }))).toBe('ok')
    expect(reason(checkContentToBackground({ v, kind: 'drops', drops: { shape: 2, size: 1 }, ...numbered, resent: true }))).toBe('ok')
  })

  it('rejects a tab id in the message, unknown drop reasons and bad counts', () => {
    expect(reason(checkContentToBackground({ v, kind: 'events', url: 'http://x/', tabId: 3, events: [], ...numbered }))).toBe('shape')
    expect(reason(checkContentToBackground({ v, kind: 'drops', drops: { mood: 1 }, ...numbered }))).toBe('shape')
    expect(reason(checkContentToBackground({ v, kind: 'drops', drops: { shape: -1 }, ...numbered }))).toBe('shape')
    expect(reason(checkContentToBackground({ v: 0, kind: 'drops', drops: {}, ...numbered }))).toBe('version')
  })

  it('rejects a message without its place in a stream, or with a bad one', () => {
    const drops = { v, kind: 'drops', drops: {} }
    expect(reason(checkContentToBackground(drops))).toBe('shape')
    expect(reason(checkContentToBackground({ ...drops, stream: 'a1b2' }))).toBe('shape')
    expect(reason(checkContentToBackground({ ...drops, stream: '', seq: 1 }))).toBe('shape')
    expect(reason(checkContentToBackground({ ...drops, stream: 'x'.repeat(65), seq: 1 }))).toBe('size')
    expect(reason(checkContentToBackground({ ...drops, stream: 'a1b2', seq: 1.5 }))).toBe('shape')
    expect(reason(checkContentToBackground({ ...drops, ...numbered, resent: false }))).toBe('shape')
  })
})

describe('background <-> panel and content', () => {
  it('accepts subscribe for a tab id and nothing else', () => {
    expect(reason(checkPanelToBackground({ v, kind: 'subscribe', tabId: 12 }))).toBe('ok')
    expect(reason(checkPanelToBackground({ v, kind: 'subscribe', tabId: -1 }))).toBe('shape')
    expect(reason(checkPanelToBackground({ v, kind: 'subscribe', tabId: '12' }))).toBe('shape')
    expect(reason(checkPanelToBackground({ v, kind: 'write', tabId: 12 }))).toBe('shape')
  })

  it('accepts history, batch and drops for the panel', () => {
    expect(reason(checkBackgroundToPanel({ v, kind: 'history', tabId: 1, batches: [tabBatch(), tabBatch([], 3)], truncated: true }))).toBe('ok')
    expect(reason(checkBackgroundToPanel({ v, kind: 'batch', tabId: 1, batch: tabBatch() }))).toBe('ok')
    expect(reason(checkBackgroundToPanel({ v, kind: 'drops', tabId: 1, drops: { sender: 1 } }))).toBe('ok')
    expect(reason(checkBackgroundToPanel({ v, kind: 'batch', tabId: 1, batch: { ...tabBatch(), frameId: -2 } }))).toBe('shape')
    expect(reason(checkBackgroundToPanel({ v, kind: 'batch', tabId: 1, batch: tabBatch([{ ...call(), tool: '' }]) }))).toBe('shape')
  })

  it("accepts a batch tagged with its frame's origin only: scheme://host[:port], file:// or the opaque null", () => {
    const tagged = (origin: unknown) => reason(checkBackgroundToPanel({ v, kind: 'batch', tabId: 1, batch: { ...tabBatch(), origin } }))
    expect(['http://127.0.0.1:8080', 'https://app.example', 'file://', 'null'].map(tagged)).toEqual(['ok', 'ok', 'ok', 'ok'])
    expect(['https://bank.example/accounts', 'app.example', '', 'NULL', 7].map(tagged)).toEqual(['shape', 'shape', 'shape', 'shape', 'shape'])
    const { origin: _, ...untagged } = tabBatch()
    expect(reason(checkBackgroundToPanel({ v, kind: 'batch', tabId: 1, batch: untagged }))).toBe('shape')
  })

  it('accepts the resync request for content', () => {
    expect(reason(checkBackgroundToContent({ v, kind: 'resync' }))).toBe('ok')
    expect(reason(checkBackgroundToContent({ v, kind: 'config' }))).toBe('shape')
    // An acknowledgement travels over the relay's port only, never to a frame without one.
    expect(reason(checkBackgroundToContent({ v, kind: 'ack', seq: 1 }))).toBe('shape')
  })

  it('accepts the resync request and acknowledgements over the relay port', () => {
    expect(reason(checkBackgroundToRelay({ v, kind: 'resync' }))).toBe('ok')
    expect(reason(checkBackgroundToRelay({ v, kind: 'ack', seq: 3 }))).toBe('ok')
    expect(reason(checkBackgroundToRelay({ v, kind: 'ack', seq: -1 }))).toBe('shape')
    expect(reason(checkBackgroundToRelay({ v, kind: 'ack' }))).toBe('shape')
    expect(reason(checkBackgroundToRelay({ v, kind: 'resync', seq: 3 }))).toBe('shape')
  })

  it('accepts a batch marked replayed for the panel, and no other mark', () => {
    expect(reason(checkBackgroundToPanel({ v, kind: 'batch', tabId: 1, batch: tabBatch(), replayed: true }))).toBe('ok')
    expect(reason(checkBackgroundToPanel({ v, kind: 'batch', tabId: 1, batch: tabBatch(), replayed: false }))).toBe('shape')
  })
})
