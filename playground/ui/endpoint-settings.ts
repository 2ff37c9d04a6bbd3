// The OpenAI-compatible endpoint the user points the agent at. The key stays in this tab's
// session storage unless the user asks to remember it on this device (local storage).

export interface EndpointSettings {
  readonly baseUrl: string
  readonly model: string
  readonly apiKey: string
  readonly rememberKey: boolean
}

export interface SettingsStorage {
  readonly local: Storage
  readonly session: Storage
}

const KEY = {
  baseUrl: 'repeat-tool-guard.playground.baseUrl',
  model: 'repeat-tool-guard.playground.model',
  apiKey: 'repeat-tool-guard.playground.apiKey',
} as const

export const DEFAULT_ENDPOINT: EndpointSettings = { baseUrl: 'http://localhost:11434/v1', model: '', apiKey: '', rememberKey: false }

/** Storage can be off (privacy settings) or full: the settings then live for this page only. */
function attempt<T>(work: () => T, fallback: T): T {
  try {
    return work()
  } catch {
    return fallback
  }
}

export function loadEndpointSettings(storage: SettingsStorage): EndpointSettings {
  const remembered = attempt(() => storage.local.getItem(KEY.apiKey), null)
  return {
    baseUrl: attempt(() => storage.local.getItem(KEY.baseUrl), null) ?? DEFAULT_ENDPOINT.baseUrl,
    model: attempt(() => storage.local.getItem(KEY.model), null) ?? DEFAULT_ENDPOINT.model,
    apiKey: remembered ?? attempt(() => storage.session.getItem(KEY.apiKey), null) ?? '',
    rememberKey: remembered !== null,
  }
}

export function saveEndpointSettings(settings: EndpointSettings, storage: SettingsStorage): void {
  attempt(() => {
    storage.local.setItem(KEY.baseUrl, settings.baseUrl)
    storage.local.setItem(KEY.model, settings.model)
  }, undefined)
  const [keep, drop] = settings.rememberKey ? [storage.local, storage.session] : [storage.session, storage.local]
  attempt(() => drop.removeItem(KEY.apiKey), undefined)
  attempt(() => (settings.apiKey === '' ? keep.removeItem(KEY.apiKey) : keep.setItem(KEY.apiKey, settings.apiKey)), undefined)
}
