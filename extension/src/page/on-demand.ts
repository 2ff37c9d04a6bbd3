// What the page script needs only once the page calls `window.__REPEAT_TOOL_GUARD__`, sends a
// request that may be an LLM request, or the relay speaks to it: the engine's guard, the bridge to
// the relay, zero-code mode's analysis. Reached through `onDemand()` (deferred.ts) only, so the build can
// keep it from running at document_start.
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { joined } from '../../../engine/intrinsics.ts'
import { PROTOCOL_VERSION, type AgentState } from '../protocol/events.ts'
import { fromEngineEvent } from '../protocol/from-engine.ts'
import type { PageBuiltins } from './builtins.ts'
import type { OriginMode } from './origin-mode.ts'
import type { ToRelay } from './relay-channel.ts'
import { loadedAddress, reportedAddress } from './page-address.ts'
import { createPageGuard, type PageGuard } from './page-api.ts'
import { createPageBridge } from './page-bridge.ts'
import { createRecentCalls } from './recent-calls.ts'
import { createResponsesTraffic, type ResponsesTraffic } from './responses/traffic.ts'
import { createAgentStreams, type AgentStreams } from './streams/agent-streams.ts'
import { createWebMcpAnalysis, type WebMcpAnalysis } from './webmcp/analysis.ts'
import { createWireAnalysis, type WireAnalysis } from './wire/analysis.ts'

interface StartUp {
  readonly win: Window
  readonly builtins: PageBuiltins
  /** When the page loaded (`document_start`): reported with the page's first batch. */
  readonly loadedAt: number
  /** `window.origin` at `document_start`. */
  readonly origin: string
  readonly zeroCode: OriginMode
  /** The page's end of the private channel to the relay. */
  readonly toRelay: ToRelay
}

interface PageHalf {
  /** The guard behind `window.__REPEAT_TOOL_GUARD__`. */
  readonly api: PageGuard
  readonly fault: (message: string) => void
  /** A message of the relay, from the private channel (not yet checked). */
  readonly fromRelay: (data: unknown) => void
  /** Zero-code mode's analysis, shared by every transport that carries LLM requests. */
  readonly wireAnalysis: () => WireAnalysis
  /** OpenAI Responses API requests, continued ones guarded over their chain (docs/zero-code.md, "OpenAI Responses continued by id"). */
  readonly responses: () => ResponsesTraffic
  /** Agent event streams of loops that run on a server (docs/zero-code.md, "Agents whose loop runs on the server"). */
  readonly streams: () => AgentStreams
  /** The frame's WebMCP agent, for the tools it exposes through WebMCP. */
  readonly webMcpAnalysis: () => WebMcpAnalysis
}

export function startPage({ win, builtins, loadedAt, origin, zeroCode, toRelay }: StartUp): PageHalf {
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  let wire: WireAnalysis | undefined
  let responses: ResponsesTraffic | undefined
  let webMcp: WebMcpAnalysis | undefined
  let streams: AgentStreams | undefined
  const wireAgents = (): AgentState[] => joined(wire?.snapshot() ?? [], webMcp?.snapshot() ?? [])
  const page = createPageBridge({ builtins, toRelay, guard, loadedAt, url: reportedAddress(loadedAddress(win, origin)), wireAgents, setZeroCode: zeroCode.set })

  const recentCalls = createRecentCalls()
  guard.subscribe((event) => {
    if (event.type === 'call') recentCalls.add(event.tool, event.canonicalArguments)
    page.push(fromEngineEvent(event))
  })

  const wireAnalysis = (): WireAnalysis => (wire ??= createWireAnalysis({ config: () => guard.config, emit: page.emit, hookSaw: recentCalls.has, now: builtins.now }))
  return {
    api: createPageGuard(guard, PROTOCOL_VERSION, page.fault),
    fault: page.fault,
    fromRelay: page.fromRelay,
    wireAnalysis,
    responses: () => (responses ??= createResponsesTraffic({ analysis: wireAnalysis(), fault: page.fault, later: builtins.later })),
    streams: () => (streams ??= createAgentStreams(wireAnalysis())),
    webMcpAnalysis: () => (webMcp ??= createWebMcpAnalysis({ config: () => guard.config, emit: page.emit, now: builtins.now })),
  }
}
