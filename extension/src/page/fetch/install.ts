// Zero-code mode: patches the page's fetch to guard LLM requests (WIRE.md).
// Placeholder signature until the interceptor lands; the page entry already calls it.
import type { GuardConfig } from '../../../../engine/index.ts'
import type { InspectorEvent } from '../../protocol/events.ts'

export interface FetchInterceptorOptions {
  /** The page's global object; its `fetch` is replaced by a Proxy over the native one. */
  readonly target: typeof globalThis
  /** The config in force, read on every request (it changes live from the panel). */
  readonly config: () => GuardConfig
  /** Inspector events for wire agents (`agent`, `call`, `reminder`, `request`, `fault`). */
  readonly emit: (event: InspectorEvent) => void
  /**
   * Whether the page's own agent already reported this call through `window.__REPEAT_TOOL_GUARD__`
   * (recent calls, by tool and canonical arguments). A conversation whose calls the hook already saw
   * is the page's agent: the interceptor neither guards it again nor shows it as a wire agent.
   */
  readonly hookSaw: (tool: string, canonicalArguments: string) => boolean
}

export function installFetchInterceptor(_options: FetchInterceptorOptions): void {}
