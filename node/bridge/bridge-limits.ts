// The bridge's bounds (docs/node-bridge.md, "Bounds"): however a client behaves, the process holds at most
// `maxClients × (maxPayload + maxBufferedBytes)` for its sockets, plus `historyBytes` of events.
export interface BridgeLimits {
  /** Connections open at once; one more is refused with 1013 (try again later). */
  readonly maxClients: number
  /** The largest message a client may send (a config); `ws` refuses a larger frame with 1009. */
  readonly maxPayload: number
  /** Bytes queued to one client unsent; a client that reads slower is dropped, never waited for. */
  readonly maxBufferedBytes: number
  /** Messages one client may send per second; more closes it with 1008. */
  readonly messagesPerSecond: number
  /** The recent events kept for panels that attach late, estimated as the protocol sizes them. */
  readonly historyBytes: number
}

export const DEFAULT_BRIDGE_LIMITS: BridgeLimits = {
  maxClients: 8,
  maxPayload: 256 * 1024,
  maxBufferedBytes: 8 * 1024 * 1024,
  messagesPerSecond: 20,
  historyBytes: 2 * 1024 * 1024,
}

/** `REPEAT_TOOL_GUARD_PORT`: unset for the default, `0` for no bridge, else a TCP port. */
export function bridgePort(value: string | undefined, fallback: number): { readonly ok: true; readonly port: number } | { readonly ok: false; readonly reason: string } {
  if (value === undefined || value.trim() === '') return { ok: true, port: fallback }
  const text = value.trim()
  const port = Number(text)
  if (!/^\d{1,5}$/.test(text) || port > 65_535) return { ok: false, reason: `REPEAT_TOOL_GUARD_PORT must be a port number (0 turns the bridge off), got ${JSON.stringify(value)}` }
  return { ok: true, port }
}
