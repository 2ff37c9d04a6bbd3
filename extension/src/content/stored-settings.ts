// The settings the user keeps in extension storage (the config, zero-code mode's per-origin
// setting), on their way to the page: read when the relay starts (the page has spoken), and again
// on every change. Each is checked before it goes out; a
// bad stored value is refused whole and reported, and the page keeps what it runs.
import browser from 'webextension-polyfill'
import type { GuardConfig } from '../../../engine/index.ts'
import { CONFIG_STORAGE_KEY } from '../protocol/messages.ts'
import { frameOrigin, type ZeroCodeMode } from '../protocol/zero-code-mode.ts'
import { readStoredConfig } from './stored-config.ts'
import { startZeroCodeDelivery } from './stored-zero-code-mode.ts'

interface SettingsTarget {
  /** Posts a config to the page. */
  readonly config: (config: GuardConfig) => void
  /** Posts zero-code mode's setting for this frame's origin to the page. */
  readonly zeroCode: (mode: ZeroCodeMode) => void
  /** Reports a stored value that was refused. */
  readonly refused: (message: string) => void
}

export function deliverStoredSettings(to: SettingsTarget): void {
  function applyConfig(value: unknown, atStart: boolean): void {
    const stored = readStoredConfig(value)
    if (!stored.ok) return void to.refused(`stored config rejected, the page keeps its config: ${stored.error}`)
    // Nothing stored at start: the page already runs the recommended config.
    if (atStart && value === undefined) return
    to.config(stored.config)
  }

  browser.storage.local.get(CONFIG_STORAGE_KEY).then(
    (items) => applyConfig(items[CONFIG_STORAGE_KEY], true),
    () => {
      // Storage unavailable (the extension context is gone): the page keeps the recommended config.
    },
  )
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && Object.hasOwn(changes, CONFIG_STORAGE_KEY)) applyConfig(changes[CONFIG_STORAGE_KEY]!.newValue, false)
  })
  // The page listens already (it spoke first): nothing it could have missed needs sending again.
  startZeroCodeDelivery({
    storage: browser.storage,
    origin: frameOrigin(window),
    post: to.zeroCode,
    rejected: (reasons) => to.refused(`stored zero-code settings refused, their origins keep their defaults: ${reasons.join('; ')}`),
  })
}
