// Validation of the round-two detector keys (docs/detectors.md, "Config errors"): each bad value
// names its key, a rejected configure keeps the config in force, and a key at its "off" value is
// left out of the resolved config.
import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, DEFAULT_CONFIG, DETECTORS_OFF, GuardConfigError, resolveConfig } from '../../../engine/index.ts'
import { rejection } from './support/rejection.ts'

describe('round-two detector config', () => {
  it('leaves the new keys out while they are off, and turns them off from DETECTORS_OFF', () => {
    expect(resolveConfig({ ignoreArgumentKeys: [], errorRuns: null, similar: null })).toEqual(DEFAULT_CONFIG)
    const guard = createRepeatToolGuard({ ignoreArgumentKeys: ['requestId'], errorRuns: { after: 3 }, similar: { threshold: 0.8, minCalls: 3 } })
    expect(guard.configure({ ...DETECTORS_OFF })).toEqual(DEFAULT_CONFIG)
  })

  it('keeps, copies and freezes ignoreArgumentKeys, top level and per tool (an empty list there too)', () => {
    const keys = ['requestId']
    const config = resolveConfig({
      ignoreArgumentKeys: keys,
      tools: [
        { match: 'grep', ignoreArgumentKeys: [] },
        { match: 'read_*', ignoreArgumentKeys: ['nonce'] },
      ],
    })
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      ignoreArgumentKeys: ['requestId'],
      tools: [
        { match: 'grep', ignoreArgumentKeys: [] },
        { match: 'read_*', ignoreArgumentKeys: ['nonce'] },
      ],
    })
    keys.push('nonce')
    expect(config.ignoreArgumentKeys).toEqual(['requestId'])
    expect([config.ignoreArgumentKeys, config.tools![0]!.ignoreArgumentKeys].every(Object.isFrozen)).toBe(true)
  })

  it('keeps errorRuns, and null in a tools entry, frozen', () => {
    const config = resolveConfig({
      errorRuns: { after: 3 },
      tools: [
        { match: 'poll_*', errorRuns: null },
        { match: 'fetch', errorRuns: { after: 2 } },
      ],
    })
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      tools: [
        { match: 'poll_*', errorRuns: null },
        { match: 'fetch', errorRuns: { after: 2 } },
      ],
      errorRuns: { after: 3 },
    })
    expect([config.errorRuns, config.tools![1]!.errorRuns].every(Object.isFrozen)).toBe(true)
  })

  it('keeps similar, and null in a tools entry, frozen; the bounds of threshold are [0.5, 1)', () => {
    const config = resolveConfig({
      similar: { threshold: 0.5, minCalls: 3 },
      tools: [
        { match: 'a', similar: null },
        { match: 'b', similar: { threshold: 0.999, minCalls: 4 } },
      ],
    })
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      tools: [
        { match: 'a', similar: null },
        { match: 'b', similar: { threshold: 0.999, minCalls: 4 } },
      ],
      similar: { threshold: 0.5, minCalls: 3 },
    })
    expect([config.similar, config.tools![1]!.similar].every(Object.isFrozen)).toBe(true)
  })

  it.each([
    [{ similar: true }, 'similar', 'similar must be null or an object { threshold, minCalls }, got true'],
    [{ similar: { minCalls: 3 } }, 'similar.threshold', 'similar.threshold must be a number from 0.5 up to but not including 1, got undefined'],
    [{ similar: { threshold: 1, minCalls: 3 } }, 'similar.threshold', 'similar.threshold must be a number from 0.5 up to but not including 1, got 1'],
    [{ similar: { threshold: 0.49, minCalls: 3 } }, 'similar.threshold', 'similar.threshold must be a number from 0.5 up to but not including 1, got 0.49'],
    [{ similar: { threshold: Number.NaN, minCalls: 3 } }, 'similar.threshold', 'similar.threshold must be a number from 0.5 up to but not including 1, got NaN'],
    [{ similar: { threshold: '0.8', minCalls: 3 } }, 'similar.threshold', 'similar.threshold must be a number from 0.5 up to but not including 1, got "0.8"'],
    [{ similar: { threshold: 0.8 } }, 'similar.minCalls', 'similar.minCalls must be an integer >= 3, got undefined'],
    [{ similar: { threshold: 0.8, minCalls: 2 } }, 'similar.minCalls', 'similar.minCalls must be an integer >= 3, got 2'],
    [{ similar: { threshold: 0.8, minCalls: 3, window: 5 } }, 'similar.window', 'similar.window is not a similar key (known keys: threshold, minCalls), got 5'],
    [{ tools: [{ match: 'x', similar: { threshold: 0.8, minCalls: 3.5 } }] }, 'tools[0].similar.minCalls', 'tools[0].similar.minCalls must be an integer >= 3, got 3.5'],
    [{ errorRuns: 3 }, 'errorRuns', 'errorRuns must be null or an object { after }, got 3'],
    [{ errorRuns: {} }, 'errorRuns.after', 'errorRuns.after must be an integer >= 2, got undefined'],
    [{ errorRuns: { after: 1 } }, 'errorRuns.after', 'errorRuns.after must be an integer >= 2, got 1'],
    [{ errorRuns: { after: 2.5 } }, 'errorRuns.after', 'errorRuns.after must be an integer >= 2, got 2.5'],
    [{ errorRuns: { after: 3, afer: 3 } }, 'errorRuns.afer', 'errorRuns.afer is not a errorRuns key (did you mean after?), got 3'],
    [{ tools: [{ match: 'x', errorRuns: { after: '3' } }] }, 'tools[0].errorRuns.after', 'tools[0].errorRuns.after must be an integer >= 2, got "3"'],
    [{ ignoreArgumentKeys: 'requestId' }, 'ignoreArgumentKeys', 'ignoreArgumentKeys must be an array of object keys, got "requestId"'],
    [{ ignoreArgumentKeys: ['a', ''] }, 'ignoreArgumentKeys[1]', 'ignoreArgumentKeys[1] must be a non-empty string, got ""'],
    [{ tools: [{ match: 'grep', ignoreArgumentKeys: [3] }] }, 'tools[0].ignoreArgumentKeys[0]', 'tools[0].ignoreArgumentKeys[0] must be a non-empty string, got 3'],
    [{ tools: [{ match: 'grep', ignoreArgumentKey: ['id'] }] }, 'tools[0].ignoreArgumentKey', 'tools[0].ignoreArgumentKey is not a tools entry key (did you mean ignoreArgumentKeys?), got ["id"]'],
  ])('rejects %j, naming the key', (input, key, message) => {
    expect(rejection(input)).toEqual([key, message])
  })

  it('keeps the config in force when a configure is rejected', () => {
    const guard = createRepeatToolGuard({ ignoreArgumentKeys: ['requestId'] })
    const before = guard.config
    expect(() => guard.configure({ thresholds: [4], ignoreArgumentKeys: [''] })).toThrow(GuardConfigError)
    expect(guard.config).toBe(before)
  })
})
