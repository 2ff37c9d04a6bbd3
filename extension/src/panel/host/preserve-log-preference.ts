import type { PanelStore } from '../store/panel-store.ts'

/** The panel's own preference key in extension storage (next to the config). */
const PRESERVE_LOG_KEY = 'panel.preserveLog'

type Storage = Pick<typeof chrome.storage, 'local'>

export async function loadPreserveLog(storage: Storage = chrome.storage): Promise<boolean> {
  return (await storage.local.get(PRESERVE_LOG_KEY))[PRESERVE_LOG_KEY] === true
}

/** Saves the preserve-log toggle whenever it changes, so it survives closing the panel. */
export function persistPreserveLog(store: PanelStore, storage: Storage = chrome.storage): () => void {
  let saved = store.preserveLog
  return store.subscribe(() => {
    if (store.preserveLog === saved) return
    saved = store.preserveLog
    void storage.local.set({ [PRESERVE_LOG_KEY]: saved })
  })
}
