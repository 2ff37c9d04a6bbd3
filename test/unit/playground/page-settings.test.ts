// @vitest-environment happy-dom
import { beforeEach, describe, expect, test } from 'vitest'
import { findExtensionGuard } from '../../../playground/agent/guard-port.ts'
import { DEFAULT_ENDPOINT, loadEndpointSettings, saveEndpointSettings } from '../../../playground/ui/endpoint-settings.ts'
import { readUrlOptions, scenarioUrl } from '../../../playground/ui/url-options.ts'
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { findPreset, GUARD_PRESETS, presetConfig } from '../../../playground/ui/guard-presets.ts'

const storage = () => ({ local: localStorage, session: sessionStorage })

describe('endpoint settings', () => {
  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
  })

  test('the key lives in the session unless remembered', () => {
    expect(loadEndpointSettings(storage())).toEqual(DEFAULT_ENDPOINT)
    saveEndpointSettings({ baseUrl: 'http://localhost:8080/v1', model: 'qwen', apiKey: 'sk-1', rememberKey: false }, storage())
    expect(Object.values(localStorage)).not.toContain('sk-1')
    expect(Object.values(sessionStorage)).toContain('sk-1')
    expect(loadEndpointSettings(storage())).toEqual({ baseUrl: 'http://localhost:8080/v1', model: 'qwen', apiKey: 'sk-1', rememberKey: false })

    saveEndpointSettings({ ...loadEndpointSettings(storage()), rememberKey: true }, storage())
    expect(Object.values(localStorage)).toContain('sk-1')
    expect(Object.values(sessionStorage)).not.toContain('sk-1')
    expect(loadEndpointSettings(storage()).rememberKey).toBe(true)
  })

  test('storage that refuses access leaves the defaults', () => {
    const refusing = new Proxy(localStorage, {
      get: () => () => {
        throw new Error('denied')
      },
    })
    const s = { local: refusing, session: refusing }
    expect(() => saveEndpointSettings({ ...DEFAULT_ENDPOINT, apiKey: 'x' }, s)).not.toThrow()
    expect(loadEndpointSettings(s)).toEqual(DEFAULT_ENDPOINT)
  })
})

describe('URL options', () => {
  test('scenario and autorun', () => {
    expect(readUrlOptions('?scenario=stubborn&autorun=1')).toMatchObject({ scenario: { id: 'stubborn' }, autorun: true })
    expect(readUrlOptions('')).toMatchObject({ scenario: { id: 'replay-5' }, autorun: false })
    expect(readUrlOptions('?scenario=nope&autorun=1')).toMatchObject({ scenario: { id: 'replay-5' }, autorun: false, unknownScenario: 'nope' })
    expect(scenarioUrl('http://x/?scenario=a&autorun=1&k=v', 'polling')).toBe('http://x/?scenario=polling&k=v')
  })

  test('guard options: a named preset, kept in the link; an unknown one does not autorun', () => {
    expect(readUrlOptions('?scenario=ping-pong&config=cycles&autorun=1')).toMatchObject({ scenario: { id: 'ping-pong' }, preset: { id: 'cycles' }, autorun: true })
    expect(readUrlOptions('?scenario=ping-pong')).toMatchObject({ preset: { id: 'default' } })
    expect(readUrlOptions('?scenario=ping-pong&config=loud&autorun=1')).toMatchObject({ preset: { id: 'default' }, autorun: false, unknownPreset: 'loud' })
    expect(scenarioUrl('http://x/?scenario=a&autorun=1', 'runaway', 'stop')).toBe('http://x/?scenario=runaway&config=stop')
    expect(scenarioUrl('http://x/?scenario=a&config=stop', 'runaway', 'default')).toBe('http://x/?scenario=runaway')
  })

  test('every preset is a config the engine accepts, and turns off what it leaves out', () => {
    const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
    for (const preset of GUARD_PRESETS) guard.configure(presetConfig(preset))
    guard.configure(presetConfig(findPreset('default')!))
    expect(guard.config).toEqual(RECOMMENDED_CONFIG)
    expect(guard.configure(presetConfig(findPreset('stop')!))).toEqual({ ...RECOMMENDED_CONFIG, stopAfter: 5 })
  })
})

describe('finding the extension guard', () => {
  test('only an object with the guard functions counts', () => {
    expect(findExtensionGuard({})).toBeUndefined()
    expect(findExtensionGuard({ __REPEAT_TOOL_GUARD__: 'forged' })).toBeUndefined()
    expect(findExtensionGuard({ __REPEAT_TOOL_GUARD__: { postExecute: 1, promptSubmit: () => {} } })).toBeUndefined()
    const guard = { postExecute: async () => ({ kind: 'continue' }), promptSubmit: () => {} }
    expect(findExtensionGuard({ __REPEAT_TOOL_GUARD__: guard })).toBe(guard)
  })
})
