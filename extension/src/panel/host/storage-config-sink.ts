import { GuardConfigError, RECOMMENDED_CONFIG, resolveConfig, type GuardConfig } from '../../../../engine/index.ts'
import { CONFIG_STORAGE_KEY } from '../../protocol/messages.ts'
import type { ConfigSink } from '../components/config-sink.ts'

type Storage = Pick<typeof chrome.storage, 'local' | 'onChanged'>

/**
 * The config saved in extension storage, where the content script reads it and relays it to the
 * page. Only the panel (never a page) writes it, and only a value the engine accepted.
 */
export async function createStorageConfigSink(storage: Storage = chrome.storage): Promise<ConfigSink> {
  const listeners = new Set<() => void>()
  let current = readable((await storage.local.get(CONFIG_STORAGE_KEY))[CONFIG_STORAGE_KEY])

  storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !Object.hasOwn(changes, CONFIG_STORAGE_KEY)) return
    current = readable(changes[CONFIG_STORAGE_KEY]?.newValue)
    for (const listener of listeners) listener()
  })

  return {
    current: () => current,
    async apply(config) {
      const checked = resolveConfig(config, RECOMMENDED_CONFIG)
      await storage.local.set({ [CONFIG_STORAGE_KEY]: checked })
      current = checked
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

/**
 * The stored value when the engine accepts it; the shipped default when absent or unusable. Keys
 * left out come from the recommended config, exactly as the content script fills them
 * (content/stored-config.ts): the panel must show the config the page runs.
 */
function readable(value: unknown): GuardConfig {
  if (value === undefined) return RECOMMENDED_CONFIG
  try {
    return resolveConfig(value, RECOMMENDED_CONFIG)
  } catch (error) {
    if (error instanceof GuardConfigError) return RECOMMENDED_CONFIG
    throw error
  }
}
