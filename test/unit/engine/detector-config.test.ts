import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, DEFAULT_CONFIG, GuardConfigError, RECOMMENDED_CONFIG, resolveConfig } from '../../../engine/index.ts'
import { ofType, recordEvents } from './support/events.ts'
import { rejection } from './support/rejection.ts'

const OFF = { countBy: 'call', resultAware: false, ignoreResultKeys: [], cycles: null, stopAfter: null, tools: [] } as const

describe('detector config', () => {
  it('leaves every detector key out of the resolved config while it is off', () => {
    expect(resolveConfig(OFF)).toEqual(DEFAULT_CONFIG)
    expect(Object.keys(resolveConfig({ ...RECOMMENDED_CONFIG, ...OFF }))).toEqual(['thresholds', 'include', 'exclude', 'argumentsPreviewChars'])
    expect(createRepeatToolGuard(OFF).config).toEqual(DEFAULT_CONFIG)
  })

  it('keeps, copies and freezes the keys that are on, after the original four', () => {
    const ignoreResultKeys = ['timestamp']
    const tools = [{ match: 'scroll_*', thresholds: [12, 6], countBy: 'tool', resultAware: true, stopAfter: null }, { match: 'grep' }] as const
    const config = resolveConfig({ countBy: 'tool', resultAware: true, ignoreResultKeys, cycles: { maxPeriod: 3, repeats: 3 }, stopAfter: 4, tools })
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      countBy: 'tool',
      resultAware: true,
      ignoreResultKeys: ['timestamp'],
      cycles: { maxPeriod: 3, repeats: 3 },
      stopAfter: 4,
      tools: [{ match: 'scroll_*', thresholds: [6, 12], countBy: 'tool', resultAware: true, stopAfter: null }, { match: 'grep' }],
    })
    ignoreResultKeys.push('requestId')
    expect(config.ignoreResultKeys).toEqual(['timestamp'])
    expect([config, config.ignoreResultKeys, config.cycles, config.tools, config.tools![0]].every(Object.isFrozen)).toBe(true)
    expect(resolveConfig(config)).toEqual(config)
  })

  it('rejects every bad top-level detector value, naming the key', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ countBy: 'calls' }, 'countBy', 'countBy must be "call" or "tool", got "calls"'],
      [{ countBy: null }, 'countBy', 'countBy must be "call" or "tool", got null'],
      [{ resultAware: 'yes' }, 'resultAware', 'resultAware must be true or false, got "yes"'],
      [{ resultAware: 1 }, 'resultAware', 'resultAware must be true or false, got 1'],
      [{ ignoreResultKeys: 'timestamp' }, 'ignoreResultKeys', 'ignoreResultKeys must be an array of object keys, got "timestamp"'],
      [{ ignoreResultKeys: ['a', ''] }, 'ignoreResultKeys[1]', 'ignoreResultKeys[1] must be a non-empty string, got ""'],
      [{ ignoreResultKeys: [3] }, 'ignoreResultKeys[0]', 'ignoreResultKeys[0] must be a non-empty string, got 3'],
      [{ cycles: true }, 'cycles', 'cycles must be null or an object { maxPeriod, repeats }, got true'],
      [{ cycles: [2, 3] }, 'cycles', 'cycles must be null or an object { maxPeriod, repeats }, got [2,3]'],
      [{ cycles: { repeats: 3 } }, 'cycles.maxPeriod', 'cycles.maxPeriod must be an integer from 2 to 6, got undefined'],
      [{ cycles: { maxPeriod: 1, repeats: 3 } }, 'cycles.maxPeriod', 'cycles.maxPeriod must be an integer from 2 to 6, got 1'],
      [{ cycles: { maxPeriod: 7, repeats: 3 } }, 'cycles.maxPeriod', 'cycles.maxPeriod must be an integer from 2 to 6, got 7'],
      [{ cycles: { maxPeriod: 2.5, repeats: 3 } }, 'cycles.maxPeriod', 'cycles.maxPeriod must be an integer from 2 to 6, got 2.5'],
      [{ cycles: { maxPeriod: 3 } }, 'cycles.repeats', 'cycles.repeats must be an integer >= 2, got undefined'],
      [{ cycles: { maxPeriod: 3, repeats: 1 } }, 'cycles.repeats', 'cycles.repeats must be an integer >= 2, got 1'],
      [{ cycles: { maxPeriod: 3, repeats: '3' } }, 'cycles.repeats', 'cycles.repeats must be an integer >= 2, got "3"'],
      [{ cycles: { maxPeriod: 3, repeat: 3 } }, 'cycles.repeat', 'cycles.repeat is not a cycles key (did you mean repeats?), got 3'],
      [{ cycles: { maxPeriod: 3, repeats: 3, window: 9 } }, 'cycles.window', 'cycles.window is not a cycles key (known keys: maxPeriod, repeats), got 9'],
      [{ stopAfter: 1 }, 'stopAfter', 'stopAfter must be null or an integer >= 2, got 1'],
      [{ stopAfter: 2.5 }, 'stopAfter', 'stopAfter must be null or an integer >= 2, got 2.5'],
      [{ stopAfter: '5' }, 'stopAfter', 'stopAfter must be null or an integer >= 2, got "5"'],
      [{ stopAfter: Infinity }, 'stopAfter', 'stopAfter must be null or an integer >= 2, got Infinity'],
      [{ cycle: { maxPeriod: 3, repeats: 3 } }, 'cycle', 'cycle is not a config key (did you mean cycles?), got {"maxPeriod":3,"repeats":3}'],
    ]
    for (const [input, key, message] of cases) expect(rejection(input)).toEqual([key, message])
  })

  it('rejects every bad tools entry, naming the entry and its field', () => {
    const cases: [unknown, string, string][] = [
      [{ match: 'grep' }, 'tools', 'tools must be an array of per-tool overrides, got {"match":"grep"}'],
      [['grep'], 'tools[0]', 'tools[0] must be an object { match, thresholds?, countBy?, resultAware?, stopAfter? }, got "grep"'],
      [[{ thresholds: [2] }], 'tools[0].match', 'tools[0].match must be a non-empty string, got undefined'],
      [[{ match: 'a' }, { match: '' }], 'tools[1].match', 'tools[1].match must be a non-empty string, got ""'],
      [[{ match: 'a', thresholds: [] }], 'tools[0].thresholds', 'tools[0].thresholds must be a non-empty array of integers >= 2, got []'],
      [[{ match: 'a', thresholds: [3, 1] }], 'tools[0].thresholds[1]', 'tools[0].thresholds[1] must be an integer >= 2, got 1'],
      [[{ match: 'a', thresholds: [3, 3] }], 'tools[0].thresholds[1]', 'tools[0].thresholds[1] is a duplicate, got 3'],
      [[{ match: 'a', countBy: 'args' }], 'tools[0].countBy', 'tools[0].countBy must be "call" or "tool", got "args"'],
      [[{ match: 'a', resultAware: null }], 'tools[0].resultAware', 'tools[0].resultAware must be true or false, got null'],
      [[{ match: 'a', stopAfter: 0 }], 'tools[0].stopAfter', 'tools[0].stopAfter must be null or an integer >= 2, got 0'],
      [[{ match: 'a', threshold: [3] }], 'tools[0].threshold', 'tools[0].threshold is not a tools entry key (did you mean thresholds?), got [3]'],
      [
        [{ match: 'a', include: ['b'] }],
        'tools[0].include',
        'tools[0].include is not a tools entry key (known keys: match, thresholds, countBy, resultAware, stopAfter, ignoreArgumentKeys, errorRuns, similar), got ["b"]',
      ],
    ]
    for (const [tools, key, message] of cases) expect(rejection({ tools })).toEqual([key, message])
  })

  it('rejects a pattern the matcher cannot compile when validating, never later', () => {
    const long = 'x'.repeat(70_000)
    expect(rejection({ include: [long] })).toEqual(['include[0]', `include[0] is too long for the matcher (at most 1024 characters), got "${'x'.repeat(79)}…`])
    expect(rejection({ exclude: ['ok', `${long}*`] })[0]).toBe('exclude[1]')
    expect(rejection({ tools: [{ match: long }] })).toEqual(['tools[0].match', `tools[0].match is too long for the matcher (at most 1024 characters), got "${'x'.repeat(79)}…`])
  })
})

describe('configure with detectors', () => {
  it('keeps detector keys left out, and turns one off when given its off value', () => {
    const guard = createRepeatToolGuard({ cycles: { maxPeriod: 2, repeats: 2 }, stopAfter: 5 })
    expect(guard.configure({ countBy: 'tool' })).toEqual({ ...DEFAULT_CONFIG, countBy: 'tool', cycles: { maxPeriod: 2, repeats: 2 }, stopAfter: 5 })
    expect(guard.configure({ cycles: null, stopAfter: null, countBy: 'call' })).toEqual(DEFAULT_CONFIG)
  })

  it('keeps the old config, and says nothing, when a detector key is bad', () => {
    const guard = createRepeatToolGuard({ stopAfter: 3 })
    const before = guard.config
    const events = recordEvents(guard)
    const bad: unknown[] = [
      { cycles: { maxPeriod: 9, repeats: 2 } },
      { tools: [{ match: 'x'.repeat(70_000) }] },
      { thresholds: [4], stopAfter: 1 },
      {
        tools: [
          { match: 'a', stopAfter: 2 },
          { match: 'b', typo: 1 },
        ],
      },
    ]
    for (const update of bad) expect(() => guard.configure(update as never)).toThrow(GuardConfigError)
    expect(guard.config).toBe(before)
    expect(ofType(events, 'config')).toEqual([])
  })
})
