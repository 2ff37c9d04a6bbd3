// The fetch interceptor as the page script puts it together: the Proxy installed at once, its
// analysis built by the first request that needs it.
import type { GuardConfig } from '../../../../../engine/index.ts'
import type { AgentState, PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'
import { installFetchInterceptor as installProxy } from '../../../../../extension/src/page/fetch/install.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createAgentStreams } from '../../../../../extension/src/page/streams/agent-streams.ts'
import { createWireAnalysis, type WireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'

interface Options {
  readonly target: typeof globalThis
  readonly config: () => GuardConfig
  readonly mode: () => ZeroCodeMode
  readonly emit: (event: PanelEvent) => void
  readonly hookSaw: (tool: string, canonicalArguments: string) => boolean
  readonly maxConversations?: number
  /** Follows agent event streams too, as the page script does (streams/agent-streams.ts). */
  readonly streams?: boolean
}

export function installFetchInterceptor({ target, mode, streams, ...rest }: Options): { snapshot(): AgentState[] } {
  let analysis: WireAnalysis | undefined
  const analysed = () => (analysis ??= createWireAnalysis({ now: target.Date.now.bind(target.Date), ...rest }))
  const showAsNative = createNativeLook(target)
  installProxy({ target, mode, showAsNative, analysis: analysed, ...(streams ? { streams: () => createAgentStreams(analysed()) } : {}) })
  return { snapshot: () => analysis?.snapshot() ?? [] }
}
