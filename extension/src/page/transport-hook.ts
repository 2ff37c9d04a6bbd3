// What every hook of a transport the page sends model traffic over is given: fetch, XHR,
// WebSocket, RTCPeerConnection and Worker (docs/zero-code.md).
import type { ZeroCodeMode } from '../protocol/zero-code-mode.ts'
import type { ShowAsNative } from './native-look.ts'
import type { WireAnalysis } from './wire/analysis.ts'

export interface TransportHookOptions {
  /** The page's global object, whose transport the hook replaces. */
  readonly target: typeof globalThis
  /** The setting for this frame's origin, read on every request or message (it changes live from the panel). */
  readonly mode: () => ZeroCodeMode
  /** The analysis, asked for only by traffic that may be a model's (or a failure to report). */
  readonly analysis: () => WireAnalysis
  /** Makes a replacement look native to the page (native-look.ts). */
  readonly showAsNative: ShowAsNative
}
