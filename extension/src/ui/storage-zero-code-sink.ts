import { isRecord } from '../../../engine/safe-reading.ts'
import { modeFor, readZeroCodeSettings, ZERO_CODE_STORAGE_KEY, type ZeroCodeSettings } from '../protocol/zero-code-mode.ts'
import type { ZeroCodeSink } from './zero-code-sink.ts'

type Storage = Pick<typeof chrome.storage, 'local' | 'onChanged'>

/**
 * The per-origin settings in extension storage, where the content script of every frame reads
 * its origin's. Only the panel writes them, when the user clicks: never because a page asked.
 */
export async function createStorageZeroCodeSink(storage: Storage = chrome.storage): Promise<ZeroCodeSink> {
  const listeners = new Set<() => void>()
  const read = async (): Promise<unknown> => (await storage.local.get(ZERO_CODE_STORAGE_KEY))[ZERO_CODE_STORAGE_KEY]
  let settings: ZeroCodeSettings = readZeroCodeSettings(await read()).settings

  storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !Object.hasOwn(changes, ZERO_CODE_STORAGE_KEY)) return
    settings = readZeroCodeSettings(changes[ZERO_CODE_STORAGE_KEY]?.newValue).settings
    for (const listener of listeners) listener()
  })

  return {
    setting: (origin) => ({ mode: modeFor(settings, origin), chosen: origin !== undefined && Object.hasOwn(settings, origin) }),
    async choose(origin, mode) {
      // Read again: another panel may have set another origin since. Entries this version cannot
      // read are kept as they are (a newer version may have written them).
      const stored = await read()
      const next = { ...(isRecord(stored) ? stored : {}), [origin]: mode }
      await storage.local.set({ [ZERO_CODE_STORAGE_KEY]: next })
      settings = readZeroCodeSettings(next).settings
      for (const listener of listeners) listener()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
