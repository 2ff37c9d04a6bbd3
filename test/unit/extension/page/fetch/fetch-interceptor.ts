// The fetch interceptor as the page script puts it together: the Proxy installed at once, its
// analysis built by the first request that needs it.
import type { GuardConfig } from '../../../../../engine/index.ts'
import type { AgentState, InspectorEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'
import { installFetchInterceptor as installProxy } from '../../../../../extension/src/page/fetch/install.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createWireInspector, type WireInspector } from '../../../../../extension/src/page/wire/inspector.ts'

interface Options {
  readonly target: typeof globalThis
  readonly config: () => GuardConfig
  readonly mode: () => ZeroCodeMode
  readonly emit: (event: InspectorEvent) => void
  readonly hookSaw: (tool: string, canonicalArguments: string) => boolean
  readonly maxConversations?: number
}

export function installFetchInterceptor({ target, mode, ...rest }: Options): { snapshot(): AgentState[] } {
  let inspector: WireInspector | undefined
  const showAsNative = createNativeLook(target)
  installProxy({ target, mode, showAsNative, inspector: () => (inspector ??= createWireInspector({ now: target.Date.now.bind(target.Date), ...rest })) })
  return { snapshot: () => inspector?.snapshot() ?? [] }
}
