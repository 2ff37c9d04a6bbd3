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
}

export function installFetchInterceptor(_options: FetchInterceptorOptions): void {}
