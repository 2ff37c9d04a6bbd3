// The round-two detector keys and event fields as the protocol checks them: a config the panel
// sends is checked by shape and then by the engine, so both accept and refuse the same configs.
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
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

  it.each([
    ['ignoreArgumentKeys that is no list', { ignoreArgumentKeys: 'requestId' }],
    ['an empty ignored argument key', { ignoreArgumentKeys: [''] }],
    ['a tools entry with an ignored argument key that is no text', { tools: [{ match: 'grep', ignoreArgumentKeys: [3] }] }],
  ])('refuses a config with %s', (_what, extra) => {
    expect(reason(checkPanelEvent(withConfig(extra)))).toBe('shape')
  })
})
