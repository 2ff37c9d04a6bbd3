import { vi } from 'vitest'

type Changes = Record<string, { newValue?: unknown; oldValue?: unknown }>

/** chrome.storage with one `local` area, change events included. */
export function fakeStorage(initial: Record<string, unknown> = {}) {
  const items: Record<string, unknown> = { ...initial }
  const listeners: ((changes: Changes, area: string) => void)[] = []
  const storage = {
    items,
    local: {
      get: vi.fn(async (key: string) => (Object.hasOwn(items, key) ? { [key]: items[key] } : {})),
      set: vi.fn(async (values: Record<string, unknown>) => {
        const changes: Changes = {}
        for (const [key, value] of Object.entries(values)) {
          changes[key] = { newValue: value, oldValue: items[key] }
          items[key] = value
        }
        for (const listener of listeners) listener(changes, 'local')
      }),
    },
    onChanged: { addListener: (listener: (changes: Changes, area: string) => void) => listeners.push(listener) },
    /** A change made by another context (another panel, the options). */
    external(key: string, value: unknown, area = 'local') {
      items[key] = value
      for (const listener of listeners) listener({ [key]: { newValue: value } }, area)
    },
  }
  return storage as typeof storage & typeof chrome.storage
}
