// What the bridge serves, as a parameter: the process's guard seen as panel events, and where a
// config from the panel is applied. The register entry makes one from the guard it installs
// (docs/node-bridge.md, "The bridge"); the bridge knows nothing of fetch or of the wire guard.
import type { GuardConfig } from '../../engine/index.ts'
import type { PanelEvent } from '../../extension/src/protocol/events.ts'
import type { SnapshotEvent } from '../../extension/src/protocol/bridge-messages.ts'

export interface BridgeSource {
  /** Calls `listener` with every later panel event; the function returned stops it. */
  subscribe(listener: (event: PanelEvent) => void): () => void
  /** The agents live now and the config in force, for a panel that attaches late. */
  snapshot(): SnapshotEvent
  /**
   * Applies a config the engine accepted (the bridge ran resolveConfig on it). The source emits the
   * `config` event that tells every panel; it throws when the process refuses it.
   */
  configure(config: GuardConfig): void
}
