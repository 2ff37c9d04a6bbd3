// The messages between a guarded Node process's bridge and the panels that attach to it
// (docs/node-bridge.md, "The bridge"). Same panel events, same protocol version and same validation as
// every other hop: a panel attached to a process reads what a tab's panel reads.
import type { GuardConfig } from '../../../engine/index.ts'
import type { PanelEvent } from './events.ts'

/** Where a registered process's bridge listens unless `REPEAT_TOOL_GUARD_PORT` says otherwise. */
export const DEFAULT_BRIDGE_PORT = 8730
/** Where `npx repeat-tool-guard inspect` serves the panel as a page. */
export const DEFAULT_INSPECT_PORT = 8731

/** What the panel shows of a process: "server · pid 1234 · node 20". */
export interface ProcessInfo {
  readonly pid: number
  /** `process.version`, e.g. `v20.19.0`. */
  readonly node: string
  /** `process.title`, or the script's name when the title is only `node`. */
  readonly title: string
}

/** The longest process title carried. */
export const MAX_TITLE_CHARS = 200

/** The snapshot event a hello carries: the agents live in the process, and its config in force. */
export type SnapshotEvent = Extract<PanelEvent, { readonly type: 'snapshot' }>

// bridge -> panel (or inspector page), over the WebSocket
export type BridgeToClient =
  /** First message on every connection. */
  | { readonly v: number; readonly kind: 'hello'; readonly process: ProcessInfo; readonly snapshot: SnapshotEvent }
  /**
   * Panel events in the order the process emitted them. `history`: the recent events the process
   * kept before this client came (`truncated`: older ones were let go).
   */
  | { readonly v: number; readonly kind: 'events'; readonly events: readonly PanelEvent[]; readonly history?: true; readonly truncated?: true }
  /** A `configure` the process refused, and why; the config in force is unchanged. */
  | { readonly v: number; readonly kind: 'refused'; readonly reason: string }

// panel (or inspector page) -> bridge
/** A config the panel's user saved, for the process's guard (the engine validates it again there). */
export type ClientToBridge = { readonly v: number; readonly kind: 'configure'; readonly config: GuardConfig }
