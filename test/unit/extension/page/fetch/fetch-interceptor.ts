// The fetch interceptor as the page script puts it together: the Proxy installed at once, its
// analysis built by the first request that needs it.
import type { GuardConfig } from '../../../../../engine/index.ts'
import type { AgentState, PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'
import { installFetchInterceptor as installProxy } from '../../../../../extension/src/page/fetch/install.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createWireAnalysis, type WireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'

interface Options {
  readonly target: typeof globalThis
  readonly config: () => GuardConfig
  readonly mode: () => ZeroCodeMode
  readonly emit: (event: PanelEvent) => void
  readonly hookSaw: (tool: string, canonicalArguments: string) => boolean
  readonly maxConversations?: number
}

export function installFetchInterceptor({ target, mode, ...rest }: Options): { snapshot(): AgentState[] } {
  let analysis: WireAnalysis | undefined
  const showAsNative = createNativeLook(target)
  installProxy({ target, mode, showAsNative, analysis: () => (analysis ??= createWireAnalysis({ now: target.Date.now.bind(target.Date), ...rest })) })
  return { snapshot: () => analysis?.snapshot() ?? [] }
}
