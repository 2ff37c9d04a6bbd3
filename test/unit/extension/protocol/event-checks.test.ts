// The panel events as the protocol checks them (extension/src/protocol/event-checks.ts): every
// variant exactly, its fields within their caps, and nothing exotic that throws.
import { describe, expect, it } from 'vitest'
import { LIMITS } from '../../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE } from '../../../../extension/src/protocol/messages.ts'
import { checkContentToPage, checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { WIRE_FORMATS } from '../../../../engine/wire/types.ts'
import { call, EVENTS, v } from '../support/samples.ts'
import { reason } from './drop-reason.ts'

describe('panel events', () => {
  it.each(Object.entries(EVENTS))('accepts a well-formed %s event', (_type, event) => {
    expect(checkPanelEvent(event)).toEqual({ ok: true, value: event })
  })

  it('accepts every wire format the engine knows, on agents and requests', () => {
    for (const format of WIRE_FORMATS) {
      expect(reason(checkPanelEvent({ ...EVENTS.request, format }))).toBe('ok')
      expect(reason(checkPanelEvent({ ...EVENTS.agent, agent: { id: 'wire:1', kind: 'wire', label: 'x', format } }))).toBe('ok')
    }
  })

  it('accepts the WebMCP agent (id webmcp:<n>, kind and reach webmcp) and its reminders withheld for want of a content list', () => {
    expect(reason(checkPanelEvent({ ...EVENTS.agent, agent: { id: 'webmcp:1', kind: 'webmcp', label: 'WebMCP tools', reach: 'webmcp' } }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, agentId: 'webmcp:1', placement: 'content', withheld: 'no-content' }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.call, agentId: 'webmcp:1' }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.call, agentId: 'mcp:1' }))).toBe('shape')
  })

  it("accepts the agents of a server's loop (reach ui-stream or ag-ui) and their reminders withheld as due inside that loop, never a request", () => {
    for (const [reach, format] of [
      ['ui-stream', 'ai-sdk-ui'],
      ['ag-ui', 'ag-ui'],
    ]) {
      expect(reason(checkPanelEvent({ ...EVENTS.agent, agent: { id: 'wire:1', kind: 'wire', label: 'chat', format, reach } }))).toBe('ok')
    }
    expect(reason(checkPanelEvent({ ...EVENTS.agent, agent: { id: 'wire:1', kind: 'wire', label: 'chat', reach: 'ui-message-stream' } }))).toBe('shape')
    // Due inside the server's loop: it had no place in any request of the page's.
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, withheld: 'server-loop' }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, withheld: 'observe' }))).toBe('shape')
    expect(reason(checkPanelEvent({ ...EVENTS.request, rewritten: false, withheld: 'server-loop' }))).toBe('shape')
  })

  it('accepts a blocked event marked as would-block (zero-code mode), and the mark only as true', () => {
    expect(reason(checkPanelEvent({ ...EVENTS.blocked, agentId: 'wire:1', wouldBlock: true }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.blocked, wouldBlock: false }))).toBe('shape')
    expect(reason(checkPanelEvent({ ...EVENTS.blocked, wouldBlock: 'yes' }))).toBe('shape')
  })

  it('accepts reminders and requests withheld by the origin setting or the keep-alive limit, and nothing contradictory', () => {
    for (const withheld of ['observe', 'keepalive-limit']) {
      expect(reason(checkPanelEvent({ ...EVENTS.reminder, placement: 'messages[7]', withheld }))).toBe('ok')
      expect(reason(checkPanelEvent({ ...EVENTS.request, rewritten: false, withheld }))).toBe('ok')
    }
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, placement: 'messages[7]', withheld: 'later' }))).toBe('shape')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, placement: undefined, withheld: 'observe' }))).toBe('shape')
    expect(reason(checkPanelEvent({ ...EVENTS.request, rewritten: true, withheld: 'observe' }))).toBe('shape')
    expect(reason(checkPanelEvent({ ...EVENTS.request, rewritten: false, withheld: true }))).toBe('shape')
  })

  it('accepts a cut reminder with its true length', () => {
    const cut = { ...EVENTS.reminder, text: 'r'.repeat(LIMITS.text), textLength: LIMITS.text + 1 }
    expect(checkPanelEvent(cut)).toEqual({ ok: true, value: cut })
  })

  it("accepts the detectors' fields and kinds: cycle reminders, a named detector, result-changed resets", () => {
    for (const detector of ['repeat', 'same-tool', 'cycle']) expect(reason(checkPanelEvent({ ...EVENTS.reminder, detector }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, level: 'cycle', detector: 'cycle' }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reset, reason: 'result-changed' }))).toBe('ok')
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
    expect(reason(checkPanelEvent({ ...EVENTS.config, config }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.snapshot, config }))).toBe('ok')
    expect(reason(checkContentToPage({ source: CONTENT_SOURCE, v, kind: 'config', config }))).toBe('ok')
  })

  it('accepts an optional field present as undefined (a structured clone keeps it)', () => {
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, placement: undefined }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, textLength: undefined }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, placement: 'messages[7]' }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...call(), nextThreshold: null }))).toBe('ok')
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
    expect(reason(checkPanelEvent(event))).toBe('shape')
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
    expect(reason(checkPanelEvent(event))).toBe('size')
  })

  it('accepts fields exactly at their caps', () => {
    expect(reason(checkPanelEvent({ ...call(), tool: 't'.repeat(LIMITS.toolName), args: 'a'.repeat(LIMITS.args), argsLength: 10 ** 6 }))).toBe('ok')
  })

  it('never throws on exotic input', () => {
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap')
        },
      },
    )
    expect(reason(checkPanelEvent(trap))).toBe('shape')
    const getter = Object.defineProperty({ ...call() }, 'tool', {
      enumerable: true,
      get: () => {
        throw new Error('getter')
      },
    })
    expect(reason(checkPanelEvent(getter))).toBe('shape')
    let nested: unknown = []
    for (let i = 0; i < 100_000; i++) nested = [nested]
    expect(reason(checkPanelEvent(nested))).toBe('shape')
  })
})
