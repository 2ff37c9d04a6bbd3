import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, DEFAULT_CONFIG, GuardConfigError, RECOMMENDED_CONFIG, resolveConfig } from '../../../engine/index.ts'
import { ofType, recordEvents } from './support/events.ts'
import { rejection } from './support/rejection.ts'

describe('config', () => {
  it('defaults to thresholds 3, 5, 8, every tool tracked and a 500-character preview', () => {
    expect(DEFAULT_CONFIG).toEqual({ thresholds: [3, 5, 8], include: [], exclude: [], argumentsPreviewChars: 500 })
    expect(RECOMMENDED_CONFIG).toEqual({ thresholds: [3, 5, 8], include: [], exclude: ['todo_write'], argumentsPreviewChars: 500 })
    expect(resolveConfig()).toBe(DEFAULT_CONFIG)
    expect(resolveConfig({})).toEqual(DEFAULT_CONFIG)
    expect(createRepeatToolGuard().config).toBe(DEFAULT_CONFIG)
    expect(Object.isFrozen(DEFAULT_CONFIG) && Object.isFrozen(DEFAULT_CONFIG.thresholds)).toBe(true)
  })

  it('normalises thresholds to ascending order and copies what it keeps', () => {
    const thresholds = [8, 3, 5]
    const include = ['read_*']
    const config = resolveConfig({ thresholds, include, exclude: ['mcp_*'], argumentsPreviewChars: 1 })
    expect(config).toEqual({ thresholds: [3, 5, 8], include: ['read_*'], exclude: ['mcp_*'], argumentsPreviewChars: 1 })
    include.push('grep')
    thresholds.push(2)
    expect(config.include).toEqual(['read_*'])
    expect(Object.isFrozen(config) && Object.isFrozen(config.thresholds) && Object.isFrozen(config.include)).toBe(true)
    expect(resolveConfig({ thresholds: [2] }).thresholds).toEqual([2])
  })

  it('accepts patterns that match no tool today', () => {
    expect(resolveConfig({ exclude: ['mcp_*', 'no_such_tool'] }).exclude).toEqual(['mcp_*', 'no_such_tool'])
  })

  it('rejects a config that is not an object', () => {
    expect(rejection(null)).toEqual(['config', 'config must be an object, got null'])
    expect(rejection([3, 5])).toEqual(['config', 'config must be an object, got [3,5]'])
    expect(rejection('thresholds: [3]')).toEqual(['config', 'config must be an object, got "thresholds: [3]"'])
    expect(rejection(3)).toEqual(['config', 'config must be an object, got 3'])
  })

  it('rejects unknown keys, suggesting the key that was meant', () => {
    expect(rejection({ threshold: [3] })).toEqual(['threshold', 'threshold is not a config key (did you mean thresholds?), got [3]'])
    expect(rejection({ Exclude: [] })).toEqual(['Exclude', 'Exclude is not a config key (did you mean exclude?), got []'])
    expect(rejection({ argumentPreviewChars: 80 })).toEqual(['argumentPreviewChars', 'argumentPreviewChars is not a config key (did you mean argumentsPreviewChars?), got 80'])
    expect(rejection({ thresholds: [3], verbose: true })).toEqual([
      'verbose',
      'verbose is not a config key (known keys: thresholds, include, exclude, argumentsPreviewChars, countBy, resultAware, ignoreResultKeys, cycles, stopAfter, tools, ignoreArgumentKeys, errorRuns, similar, repeatedText), got true',
    ])
  })

  it('rejects every bad thresholds value, naming the element', () => {
    const cases: [unknown, string, string][] = [
      [undefined, 'thresholds', 'must be a non-empty array of integers >= 2, got undefined'],
      [3, 'thresholds', 'must be a non-empty array of integers >= 2, got 3'],
      ['3,5', 'thresholds', 'must be a non-empty array of integers >= 2, got "3,5"'],
      [[], 'thresholds', 'must be a non-empty array of integers >= 2, got []'],
      [{ 0: 3, length: 1 }, 'thresholds', 'must be a non-empty array of integers >= 2, got {"0":3,"length":1}'],
      [[3, 1], 'thresholds[1]', 'must be an integer >= 2, got 1'],
      [[0], 'thresholds[0]', 'must be an integer >= 2, got 0'],
      [[-3], 'thresholds[0]', 'must be an integer >= 2, got -3'],
      [[3, 4.5], 'thresholds[1]', 'must be an integer >= 2, got 4.5'],
      [[NaN], 'thresholds[0]', 'must be an integer >= 2, got NaN'],
      [[Infinity], 'thresholds[0]', 'must be an integer >= 2, got Infinity'],
      [[2 ** 53], 'thresholds[0]', 'must be an integer >= 2, got 9007199254740992'],
      [['3'], 'thresholds[0]', 'must be an integer >= 2, got "3"'],
      [[3n], 'thresholds[0]', 'must be an integer >= 2, got 3n'],
      [[null], 'thresholds[0]', 'must be an integer >= 2, got null'],
      // biome-ignore lint/suspicious/noSparseArray: a hole is what this case is about
      [[3, , 5], 'thresholds[1]', 'must be an integer >= 2, got undefined'],
      [[3, 5, 3], 'thresholds[2]', 'is a duplicate, got 3'],
    ]
    for (const [thresholds, key, reason] of cases) expect(rejection({ thresholds })).toEqual([key, `${key} ${reason}`])
  })

  it('rejects every bad include or exclude value, naming the element', () => {
    for (const key of ['include', 'exclude']) {
      expect(rejection({ [key]: 'todo_write' })).toEqual([key, `${key} must be an array of tool-name patterns, got "todo_write"`])
      expect(rejection({ [key]: null })).toEqual([key, `${key} must be an array of tool-name patterns, got null`])
      expect(rejection({ [key]: ['a', ''] })).toEqual([`${key}[1]`, `${key}[1] must be a non-empty string, got ""`])
      expect(rejection({ [key]: [/todo/] })).toEqual([`${key}[0]`, `${key}[0] must be a non-empty string, got {}`])
      expect(rejection({ [key]: [() => true] })).toEqual([`${key}[0]`, `${key}[0] must be a non-empty string, got a function`])
      expect(rejection({ [key]: [Symbol('x')] })).toEqual([`${key}[0]`, `${key}[0] must be a non-empty string, got Symbol(x)`])
    }
  })

  it('rejects a pattern too long for the matcher, and compiles the longest it takes', () => {
    const [key, message] = rejection({ exclude: ['x'.repeat(70_000)] })
    expect(key).toBe('exclude[0]')
    expect(message).toBe(`exclude[0] is too long for the matcher (at most 1024 characters), got "${'x'.repeat(79)}…`)
    expect(rejection({ include: ['a', '.'.repeat(1025)] })[0]).toBe('include[1]')
    // The longest patterns it takes, of the kinds that compile longest, work.
    for (const longest of ['x'.repeat(1024), '.'.repeat(1024), '😀'.repeat(512), 'a*'.repeat(512), '/'.repeat(1024)]) {
      const guard = createRepeatToolGuard({ thresholds: [2], exclude: [longest] })
      const agent = {}
      for (const name of [longest, 'grep', longest, 'grep']) guard.observe({ agent, name, arguments: {} })
      expect(guard.snapshot()).toMatchObject([{ tool: 'grep', count: 2 }])
    }
  })

  it('rejects every bad argumentsPreviewChars value', () => {
    for (const [value, shown] of [
      [0, '0'],
      [-1, '-1'],
      [1.5, '1.5'],
      [NaN, 'NaN'],
      [Infinity, 'Infinity'],
      ['500', '"500"'],
      [500n, '500n'],
      [null, 'null'],
      [undefined, 'undefined'],
    ] as const) {
      expect(rejection({ argumentsPreviewChars: value })).toEqual(['argumentsPreviewChars', `argumentsPreviewChars must be an integer >= 1, got ${shown}`])
    }
  })

  it('keeps the message short for a long bad value, and readable for a hostile one', () => {
    const [, long] = rejection({ include: 'x'.repeat(200) })
    expect(long).toBe(`include must be an array of tool-name patterns, got "${'x'.repeat(79)}…`)
    // The cut never leaves half a character.
    const [, emoji] = rejection({ include: `${'x'.repeat(78)}😀😀` })
    expect(emoji).toBe(`include must be an array of tool-name patterns, got "${'x'.repeat(78)}…`)
    const hostile = {
      get x(): never {
        throw new Error('no')
      },
    }
    expect(rejection({ thresholds: hostile })).toEqual(['thresholds', 'thresholds must be a non-empty array of integers >= 2, got {"x":"[Thrown: no]"}'])
  })

  it('creates no guard from a bad config', () => {
    expect(() => createRepeatToolGuard({ thresholds: [1] })).toThrow(new GuardConfigError('thresholds[0]', 1, 'must be an integer >= 2'))
    expect(() => createRepeatToolGuard({ threshold: [3] } as never)).toThrow(GuardConfigError)
  })
})

describe('configure', () => {
  it('merges over the config in force and applies it from the next call, keeping chains', () => {
    const guard = createRepeatToolGuard({ exclude: ['todo_write'], argumentsPreviewChars: 40 })
    const events = recordEvents(guard)
    const agent = {}
    const call = { agent, name: 'grep', arguments: { q: 'x' } }
    guard.observe(call)
    guard.observe(call)
    const next = guard.configure({ thresholds: [4, 6] })
    expect(next).toEqual({ thresholds: [4, 6], include: [], exclude: ['todo_write'], argumentsPreviewChars: 40 })
    expect(guard.config).toBe(next)
    expect(ofType(events, 'config')).toMatchObject([{ config: next }])
    expect(guard.observe(call)).toBeUndefined()
    expect(guard.observe(call)?.source.summary).toBe('grep × 4')
    expect(guard.snapshot()).toMatchObject([{ count: 4, nextThreshold: 6 }])
  })

  it('switches tracking for the next call when include or exclude change', () => {
    const guard = createRepeatToolGuard({ thresholds: [2] })
    const agent = {}
    guard.observe({ agent, name: 'grep', arguments: 'x' })
    guard.configure({ exclude: ['todo_*'] })
    expect(guard.observe({ agent, name: 'todo_write', arguments: '[]' })).toBeUndefined()
    expect(guard.observe({ agent, name: 'grep', arguments: 'x' })?.source.summary).toBe('grep × 2')
  })

  it('keeps the old config, and says nothing, when the update is bad', () => {
    const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
    const events = recordEvents(guard)
    const bad: unknown[] = [{ thresholds: [] }, { threshold: [3] }, { exclude: 'x' }, { argumentsPreviewChars: 0 }, null, { thresholds: [4], include: [7] }]
    for (const update of bad) expect(() => guard.configure(update as never)).toThrow(GuardConfigError)
    expect(guard.config).toEqual(RECOMMENDED_CONFIG)
    expect(events).toEqual([])
    const agent = {}
    for (let i = 1; i < 3; i++) expect(guard.observe({ agent, name: 'grep', arguments: 'x' })).toBeUndefined()
    expect(guard.observe({ agent, name: 'grep', arguments: 'x' })?.source.summary).toBe('grep × 3')
  })

  it('keeps config and filter when a pattern cannot be compiled, throwing a GuardConfigError', () => {
    const guard = createRepeatToolGuard({ thresholds: [2], exclude: ['todo_*'] })
    const before = guard.config
    expect(() => guard.configure({ exclude: ['todo_*', 'x'.repeat(40_000)], include: ['nothing'] })).toThrow(GuardConfigError)
    expect(guard.config).toBe(before)
    const agent = {}
    for (const name of ['grep', 'todo_write', 'grep']) guard.observe({ agent, name, arguments: 'x' })
    expect(guard.snapshot()).toMatchObject([{ tool: 'grep', count: 2 }])
  })
})
