import { useEffect, useState } from 'preact/hooks'
import type { InspectorStore } from '../store/inspector-store.ts'

/** Re-renders the calling component whenever the store changes; returns the store's version. */
export function useStoreVersion(store: InspectorStore): number {
  const [version, setVersion] = useState(store.version)
  useEffect(() => {
    setVersion(store.version)
    return store.subscribe(() => setVersion(store.version))
  }, [store])
  return version
}
