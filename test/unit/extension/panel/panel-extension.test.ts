import { afterEach, describe, expect, it, vi } from 'vitest'
import { RECOMMENDED_CONFIG, resolveConfig } from '../../../../engine/index.ts'
import { readStoredConfig } from '../../../../extension/src/content/stored-config.ts'
import { CONFIG_STORAGE_KEY } from '../../../../extension/src/protocol/messages.ts'
import { devtoolsTheme, followDevtoolsTheme } from '../../../../extension/src/panel/host/devtools-theme.ts'
import { inspectedTabId } from '../../../../extension/src/ui/inspected-tab.ts'
import { loadPreserveLog, persistPreserveLog } from '../../../../extension/src/panel/host/preserve-log-preference.ts'
import { createStorageConfigSink } from '../../../../extension/src/panel/host/storage-config-sink.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { fakeStorage } from './support/fake-storage.ts'

afterEach(() => vi.unstubAllGlobals())

describe('storage config sink', () => {
  it('starts from the recommended config when nothing is stored', async () => {
    const sink = await createStorageConfigSink(fakeStorage())
    expect(sink.current()).toEqual(RECOMMENDED_CONFIG)
  })

  it('reads what is stored, and ignores a stored value the engine rejects', async () => {
    expect((await createStorageConfigSink(fakeStorage({ [CONFIG_STORAGE_KEY]: { thresholds: [4] } }))).current().thresholds).toEqual([4])
    expect((await createStorageConfigSink(fakeStorage({ [CONFIG_STORAGE_KEY]: { thresholds: 'lots' } }))).current()).toEqual(RECOMMENDED_CONFIG)
  })

  it('fills keys a stored value leaves out from the recommended config, as the content script does', async () => {
    const partial = { thresholds: [4] }
    const storage = fakeStorage({ [CONFIG_STORAGE_KEY]: partial })
    const sink = await createStorageConfigSink(storage)
    expect(sink.current()).toEqual({ ...RECOMMENDED_CONFIG, thresholds: [4] })
    expect(readStoredConfig(partial)).toEqual({ ok: true, config: sink.current() })
    storage.external(CONFIG_STORAGE_KEY, { argumentsPreviewChars: 100 })
    expect(sink.current()).toEqual({ ...RECOMMENDED_CONFIG, argumentsPreviewChars: 100 })
  })

  it('saves a validated config under the shared key, and refuses anything the engine rejects', async () => {
    const storage = fakeStorage()
    const sink = await createStorageConfigSink(storage)
    await sink.apply(resolveConfig({ thresholds: [2, 6] }))
    expect(storage.items[CONFIG_STORAGE_KEY]).toEqual(resolveConfig({ thresholds: [2, 6] }))
    expect(sink.current().thresholds).toEqual([2, 6])
    await expect(sink.apply({ thresholds: [1] } as never)).rejects.toThrow('thresholds[0] must be an integer >= 2')
    expect(storage.local.set).toHaveBeenCalledTimes(1)
  })

  it('follows changes made elsewhere', async () => {
    const storage = fakeStorage()
    const sink = await createStorageConfigSink(storage)
    const listener = vi.fn()
    sink.subscribe!(listener)
    storage.external(CONFIG_STORAGE_KEY, { thresholds: [9] })
    expect(sink.current().thresholds).toEqual([9])
    storage.external('other', 1)
    storage.external(CONFIG_STORAGE_KEY, { thresholds: [4] }, 'sync')
    expect(listener).toHaveBeenCalledTimes(1)
  })
})

describe('preserve-log preference', () => {
  it('loads the saved toggle and saves every change', async () => {
    const storage = fakeStorage({ 'panel.preserveLog': true })
    const store = createPanelStore({ preserveLog: await loadPreserveLog(storage) })
    expect(store.preserveLog).toBe(true)
    persistPreserveLog(store, storage)
    store.setPaused(true)
    expect(storage.local.set).not.toHaveBeenCalled()
    store.setPreserveLog(false)
    expect(storage.items['panel.preserveLog']).toBe(false)
    expect(await loadPreserveLog(fakeStorage())).toBe(false)
  })
})

describe('the inspected tab', () => {
  it('is DevTools’ inspected window inside DevTools', () => {
    vi.stubGlobal('chrome', { devtools: { inspectedWindow: { tabId: 42 } } })
    expect(inspectedTabId({ search: '?tabId=7' })).toBe(42)
  })

  it('is ?tabId=N in an ordinary tab, and none without a usable one', () => {
    vi.stubGlobal('chrome', {})
    expect(inspectedTabId({ search: '?tabId=7' })).toBe(7)
    expect(inspectedTabId({ search: '' })).toBeUndefined()
    expect(inspectedTabId({ search: '?tabId=-1' })).toBeUndefined()
    expect(inspectedTabId({ search: '?tabId=1e3' })).toBeUndefined()
    expect(inspectedTabId({ search: '?tabId=99999999999999999999' })).toBeUndefined()
  })
})

describe('the DevTools theme', () => {
  it('maps DevTools’ theme names, and leaves the choice to the system outside DevTools', () => {
    vi.stubGlobal('chrome', { devtools: { panels: { themeName: 'dark' } } })
    expect(devtoolsTheme()).toBe('dark')
    vi.stubGlobal('chrome', { devtools: { panels: { themeName: 'default' } } })
    expect(devtoolsTheme()).toBe('light')
    vi.stubGlobal('chrome', { devtools: { panels: { themeName: 'light' } } }) // Firefox
    expect(devtoolsTheme()).toBe('light')
    vi.stubGlobal('chrome', {})
    expect(devtoolsTheme()).toBeUndefined()
  })

  it('follows each switch DevTools reports, and listens to nothing outside DevTools', () => {
    let report: ((name: string) => void) | undefined
    vi.stubGlobal('chrome', { devtools: { panels: { themeName: 'default', setThemeChangeHandler: (handler: (name: string) => void) => void (report = handler) } } })
    const seen: string[] = []
    followDevtoolsTheme((theme) => seen.push(theme))
    report!('dark')
    report!('a-future-theme')
    report!('default')
    expect(seen).toEqual(['dark', 'light'])
    vi.stubGlobal('chrome', {})
    expect(() => followDevtoolsTheme(() => seen.push('never'))).not.toThrow()
    expect(seen).toEqual(['dark', 'light'])
  })
})
