// The (tool, canonical arguments) pairs the hook guard observed recently, so the fetch interceptor
// can recognise a conversation whose calls the page's own agent already reports. Bounded both in
// entries and in characters held: arguments can be large write payloads.

interface RecentCalls {
  add(tool: string, canonicalArguments: string): void
  has(tool: string, canonicalArguments: string): boolean
}

export function createRecentCalls(maxEntries = 1_024, maxChars = 4_000_000): RecentCalls {
  // A Map iterates in insertion order: re-inserting on every sighting makes the first key the stalest.
  const entries = new Map<string, number>()
  let chars = 0
  // Length-prefixed, so no tool name can run into its arguments.
  const keyOf = (tool: string, args: string) => `${tool.length}:${tool}${args}`

  return {
    add(tool, canonicalArguments) {
      const key = keyOf(tool, canonicalArguments)
      if (entries.delete(key)) chars -= key.length
      entries.set(key, key.length)
      chars += key.length
      for (const [oldest, length] of entries) {
        if (entries.size <= maxEntries && chars <= maxChars) break
        entries.delete(oldest)
        chars -= length
      }
    },
    has(tool, canonicalArguments) {
      return entries.has(keyOf(tool, canonicalArguments))
    },
  }
}
