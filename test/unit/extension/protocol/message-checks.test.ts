// The messages between contexts as each hop checks them (extension/src/protocol/*-checks.ts): the
// tag, the version, the size and the exact shape, in that order.
import { describe, expect, it } from 'vitest'
import { LIMITS } from '../../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE, PAGE_SOURCE } from '../../../../extension/src/protocol/messages.ts'
import {
  checkBackgroundToContent,
  checkBackgroundToRelay,
  checkBackgroundToPanel,
  checkContentToBackground,
  checkContentToPage,
  checkPageToContent,
  checkPanelToBackground,
} from '../../../../extension/src/protocol/validate.ts'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { call, EVENTS, pageBatch, tabBatch, v } from '../support/samples.ts'
import { reason } from './drop-reason.ts'

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
