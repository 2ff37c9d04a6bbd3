// The config the user keeps in extension storage, checked by the engine itself before it goes to
// the page: a bad stored value is refused whole and the page keeps the config it runs.
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig } from '../../../engine/index.ts'
import { errorText } from '../../../engine/safe-reading.ts'

type StoredConfig = { readonly ok: true; readonly config: GuardConfig } | { readonly ok: false; readonly error: string }

/** No stored value means the recommended config; keys left out are taken from it. */
export function readStoredConfig(value: unknown): StoredConfig {
  try {
    return { ok: true, config: resolveConfig(value, RECOMMENDED_CONFIG) }
  } catch (error) {
    return { ok: false, error: errorText(error) }
  }
}
