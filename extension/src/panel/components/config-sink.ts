import type { GuardConfig } from '../../../../engine/index.ts'

/**
 * Where the config editor reads and saves the guard's config. The extension saves to extension
 * storage (the page picks it up from there); the playground applies it to its own guard.
 */
export interface ConfigSink {
  /** The config saved now. */
  current(): GuardConfig
  /** Saves an already validated config; rejects when saving failed. */
  apply(config: GuardConfig): Promise<void>
  /** Optional: called when the saved config changes elsewhere (another panel, the options). */
  subscribe?(listener: () => void): () => void
}
