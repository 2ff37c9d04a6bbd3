// The conversations the wire guard remembers, at most so many: the one seen least recently is
// forgotten first, so a page that starts conversation after conversation holds no more memory.
import type { Known } from './wire-agent.ts'

export interface KnownConversations {
  /** What is remembered under `key`, now the most recently seen. */
  recall(key: string): Known | undefined
  remember(key: string, value: Known): void
  values(): IterableIterator<Known>
}

export function createKnownConversations(maxConversations: number): KnownConversations {
  const known = new Map<string, Known>()
  return {
    recall(key) {
      const found = known.get(key)
      if (found) {
        known.delete(key)
        known.set(key, found)
      }
      return found
    },
    remember(key, value) {
      known.set(key, value)
      if (known.size > maxConversations) known.delete(known.keys().next().value!)
    },
    values: () => known.values(),
  }
}
