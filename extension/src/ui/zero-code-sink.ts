import type { ZeroCodeMode } from '../protocol/zero-code-mode.ts'

/**
 * Where the panel reads and saves zero-code mode's per-origin setting. The extension keeps it in
 * extension storage (the content script brings it to the page); the playground has none.
 */
export interface ZeroCodeSink {
  /** The setting in force for `origin`, and whether the user chose it (else it is the default). */
  setting(origin: string | undefined): { readonly mode: ZeroCodeMode; readonly chosen: boolean }
  /** Saves the user's choice for `origin`; rejects when saving failed. */
  choose(origin: string, mode: ZeroCodeMode): Promise<void>
  /** Called when the saved settings change (here or in another panel). */
  subscribe(listener: () => void): () => void
}
