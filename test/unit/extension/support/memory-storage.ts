// Session storage for the worker's tab summaries, in memory.
import type { SummaryStorage } from '../../../../extension/src/background/tab-summaries.ts'

export function memoryStorage(): SummaryStorage & { items: Map<string, unknown> } {
  const items = new Map<string, unknown>()
  return {
    items,
    get: async (keys) => Object.fromEntries(keys.filter((key) => items.has(key)).map((key) => [key, items.get(key)])),
    // Stored as a copy, as session storage does.
    set: async (values) => void Object.entries(values).forEach(([k, value]) => items.set(k, structuredClone(value))),
    remove: async (keys) => void keys.forEach((key) => items.delete(key)),
  }
}
