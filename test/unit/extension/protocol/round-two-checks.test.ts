// The round-two detector keys and event fields as the protocol checks them: a config the panel
// sends is checked by shape and then by the engine, so both accept and refuse the same configs.
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { fromEngineEvent } from '../../../../extension/src/protocol/from-engine.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'
import { EVENTS } from '../support/samples.ts'
import { reason } from './drop-reason.ts'

const withConfig = (extra: Record<string, unknown>) => ({ ...EVENTS.config, config: { ...RECOMMENDED_CONFIG, ...extra } })

describe('round-two detector keys in the protocol', () => {
  it('accepts ignoreArgumentKeys at the top level and in a tools entry', () => {
    expect(
      reason(
        checkPanelEvent(
          withConfig({
            ignoreArgumentKeys: ['requestId'],
            tools: [
              { match: 'grep', ignoreArgumentKeys: ['nonce'] },
              { match: 'read', ignoreArgumentKeys: [] },
            ],
          }),
        ),
      ),
    ).toBe('ok')
  })

  it('accepts errorRuns at the top level and in a tools entry, null there too, and error-run reminders', () => {
    expect(
      reason(
        checkPanelEvent(
          withConfig({
            errorRuns: { after: 3 },
            tools: [
              { match: 'a', errorRuns: null },
              { match: 'b', errorRuns: { after: 2 } },
            ],
          }),
        ),
      ),
    ).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, level: 'error-run', detector: 'error-run' }))).toBe('ok')
  })

  it('accepts similar at the top level and in a tools entry, null there too, and near-repeat reminders', () => {
    expect(
      reason(
        checkPanelEvent(
          withConfig({
            similar: { threshold: 0.8, minCalls: 3 },
            tools: [
              { match: 'a', similar: null },
              { match: 'b', similar: { threshold: 0.9, minCalls: 4 } },
            ],
          }),
        ),
      ),
    ).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, level: 'similar', detector: 'similar' }))).toBe('ok')
  })

  it('accepts repeatedText at the top level, and repeated-answer reminders', () => {
    expect(reason(checkPanelEvent(withConfig({ repeatedText: { after: 2 } })))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, level: 'repeated-text', detector: 'repeated-text' }))).toBe('ok')
  })

  it('accepts wasteMs on reminder and blocked events, and carries it from the engine', () => {
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, detector: 'repeat', wasteMs: 1200 }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.blocked, wasteMs: 0 }))).toBe('ok')
    expect(reason(checkPanelEvent({ ...EVENTS.reminder, wasteMs: -1 }))).toBe('shape')
    expect(reason(checkPanelEvent({ ...EVENTS.blocked, wasteMs: 1.5 }))).toBe('shape')
    const message = { role: 'user', content: [{ type: 'text', text: 'x' }], source: { kind: 'plugin', plugin: 'repeat-tool-guard', form: 'notice', summary: 'a × 3' } } as const
    expect(fromEngineEvent({ type: 'reminder', at: 1, agentId: 1, seq: 3, tool: 'a', count: 3, level: 'gentle', detector: 'repeat', wasteMs: 42, message })).toMatchObject({ wasteMs: 42 })
    expect(fromEngineEvent({ type: 'blocked', at: 1, agentId: 1, tool: 'a', count: 3, feedback: 'no', wasteMs: 7 })).toMatchObject({ wasteMs: 7 })
  })

  it.each([
    ['similar with a threshold as text', { similar: { threshold: '0.8', minCalls: 3 } }],
    ['similar without minCalls', { similar: { threshold: 0.8 } }],
    ['similar with a threshold the engine refuses', { similar: { threshold: 1, minCalls: 3 } }],
    ['errorRuns null at the top level (a resolved config leaves it out)', { errorRuns: null }],
    ['errorRuns with an unknown key', { errorRuns: { after: 3, extra: 1 } }],
    ['errorRuns.after the engine refuses', { errorRuns: { after: 1 } }],
    ['repeatedText null at the top level (a resolved config leaves it out)', { repeatedText: null }],
    ['repeatedText with an unknown key', { repeatedText: { after: 3, extra: 1 } }],
    ['repeatedText.after the engine refuses', { repeatedText: { after: 1 } }],
    ['repeatedText.after as text', { repeatedText: { after: '3' } }],
    ['repeatedText in a tools entry', { tools: [{ match: 'grep', repeatedText: { after: 2 } }] }],
    ['ignoreArgumentKeys that is no list', { ignoreArgumentKeys: 'requestId' }],
    ['an empty ignored argument key', { ignoreArgumentKeys: [''] }],
    ['a tools entry with an ignored argument key that is no text', { tools: [{ match: 'grep', ignoreArgumentKeys: [3] }] }],
  ])('refuses a config with %s', (_what, extra) => {
    expect(reason(checkPanelEvent(withConfig(extra)))).toBe('shape')
  })
})
