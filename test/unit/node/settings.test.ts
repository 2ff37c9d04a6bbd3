// The environment's settings of a registered process (docs/node.md, "Settings"): every bad value
// is refused with its reason, and the start-up line says what is in force.
import { describe, expect, test } from 'vitest'
import { DEFAULT_CONFIG, resolveConfig } from '../../../engine/index.ts'
import { readSettings, startLine } from '../../../node/settings.ts'

const noFile = (path: string): string => {
  throw new Error(`ENOENT: no such file or directory, open '${path}'`)
}

describe('readSettings', () => {
  test('nothing set: guard mode with the default config', () => {
    expect(readSettings({}, noFile)).toEqual({ ok: true, settings: { mode: 'guard', config: DEFAULT_CONFIG, source: 'default' } })
    expect(readSettings({ REPEAT_TOOL_GUARD: '', REPEAT_TOOL_GUARD_CONFIG: '  ' }, noFile)).toEqual({ ok: true, settings: { mode: 'guard', config: DEFAULT_CONFIG, source: 'default' } })
  })

  test.each(['guard', 'observe', 'off'] as const)('mode %s', (mode) => {
    expect(readSettings({ REPEAT_TOOL_GUARD: mode }, noFile)).toEqual({ ok: true, settings: { mode, config: DEFAULT_CONFIG, source: 'default' } })
  })

  test('a config given inline or by path is resolved as the engine resolves it', () => {
    const inline = readSettings({ REPEAT_TOOL_GUARD_CONFIG: ' {"thresholds":[2,4],"exclude":["todo_*"]}' }, noFile)
    expect(inline).toEqual({ ok: true, settings: { mode: 'guard', config: resolveConfig({ thresholds: [2, 4], exclude: ['todo_*'] }), source: 'inline JSON' } })
    const read: string[] = []
    const byPath = readSettings({ REPEAT_TOOL_GUARD: 'observe', REPEAT_TOOL_GUARD_CONFIG: '/etc/guard.json' }, (path) => (read.push(path), '{"stopAfter":6}'))
    expect(read).toEqual(['/etc/guard.json'])
    expect(byPath).toEqual({ ok: true, settings: { mode: 'observe', config: resolveConfig({ stopAfter: 6 }), source: '/etc/guard.json' } })
  })

  test.each([
    [{ REPEAT_TOOL_GUARD: 'Guard' }, 'REPEAT_TOOL_GUARD must be one of guard, observe, off, got "Guard"'],
    [{ REPEAT_TOOL_GUARD_CONFIG: '/etc/none.json' }, "REPEAT_TOOL_GUARD_CONFIG: cannot read /etc/none.json: ENOENT: no such file or directory, open '/etc/none.json'"],
    [{ REPEAT_TOOL_GUARD_CONFIG: '{"thresholds":' }, 'REPEAT_TOOL_GUARD_CONFIG (inline JSON) is not JSON: '],
    [{ REPEAT_TOOL_GUARD_CONFIG: '{"thresholds":[3],"colour":"red"}' }, 'REPEAT_TOOL_GUARD_CONFIG (inline JSON) is not a valid config: '],
    [{ REPEAT_TOOL_GUARD_CONFIG: '[3, 5]' }, 'REPEAT_TOOL_GUARD_CONFIG (inline JSON) is not a valid config: config must be an object'],
  ])('refuses %j with the reason', (env, reason) => {
    const result = readSettings(env, noFile)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.reason.startsWith(reason)).toBe(true)
  })

  test("a file's text that is not a valid config is refused, naming the file", () => {
    expect(readSettings({ REPEAT_TOOL_GUARD_CONFIG: 'guard.json' }, () => '{"thresholds":[1]}')).toEqual({
      ok: false,
      reason: 'REPEAT_TOOL_GUARD_CONFIG (guard.json) is not a valid config: thresholds[0] must be an integer >= 2, got 1',
    })
  })
})

describe('startLine', () => {
  test('says the mode, the thresholds, what else is set and where the config came from', () => {
    const pid = `(pid ${process.pid})`
    expect(startLine({ mode: 'guard', config: DEFAULT_CONFIG, source: 'default' }, 'inspector bridge off')).toBe(
      `repeat-tool-guard: guard mode, thresholds 3/5/8 (default config); inspector bridge off ${pid}`,
    )
    expect(startLine({ mode: 'observe', config: resolveConfig({ thresholds: [2, 4], stopAfter: 6, exclude: ['a'] }), source: '/etc/g.json' }, 'inspector bridge off')).toBe(
      `repeat-tool-guard: observe mode, thresholds 2/4, exclude, stopAfter set (config: /etc/g.json); inspector bridge off ${pid}`,
    )
    expect(startLine({ mode: 'off', config: DEFAULT_CONFIG, source: 'default' }, 'inspector bridge off')).toBe(`repeat-tool-guard: off, fetch left as it is; inspector bridge off ${pid}`)
  })
})
