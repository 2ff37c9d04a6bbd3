// The (tool, canonical arguments) pairs the hook guard observed recently, so the fetch interceptor
// can recognise a conversation whose calls the page's own agent already reports. Bounded both in
// entries and in characters held: arguments can be large write payloads.

import { firstKey, maps } from '../../../engine/intrinsics.ts'

interface RecentCalls {
  add(tool: string, canonicalArguments: string): void
  has(tool: string, canonicalArguments: string): boolean
}

export function createRecentCalls(maxEntries = 1_024, maxChars = 4_000_000): RecentCalls {
  // A Map iterates in insertion order: re-inserting on every sighting makes the first key the stalest.
  const entries = new Map<string, number>()
  const map = maps<string, number>()
  let chars = 0
  // Length-prefixed, so no tool name can run into its arguments.
  const keyOf = (tool: string, args: string) => `${tool.length}:${tool}${args}`

  return {
    add(tool, canonicalArguments) {
      const key = keyOf(tool, canonicalArguments)
      if (map.delete(entries, key)) chars -= key.length
      map.set(entries, key, key.length)
      chars += key.length
      while (map.size(entries) > maxEntries || chars > maxChars) {
        const oldest = firstKey(entries)!
        chars -= map.get(entries, oldest)!
        map.delete(entries, oldest)
      }
    },
    has(tool, canonicalArguments) {
      return map.has(entries, keyOf(tool, canonicalArguments))
    },
  }
}
