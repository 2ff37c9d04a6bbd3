import { useEffect, useState } from 'preact/hooks'
import type { PanelStore } from '../store/panel-store.ts'

/** Re-renders the calling component whenever the store changes; returns the store's version. */
export function useStoreVersion(store: PanelStore): number {
  const [version, setVersion] = useState(store.version)
  useEffect(() => {
    setVersion(store.version)
    return store.subscribe(() => setVersion(store.version))
  }, [store])
  return version
}
