// Zero-code mode's events as panel events: wire agents are `wire:<n>`; the chain events are the
// engine's, so they go through the same adapter as the hook's and only change agent. Made by the
// page script (page/wire/analysis.ts), and by the playground's own guard of a useChat page when
// the extension is not there.
import type { AgentStreamProtocol, WireAgentState, WireEvent, WireFormat } from '../../../engine/wire/index.ts'
import { headOf } from '../../../engine/safe-reading.ts'
import { LIMITS, type AgentId, type AgentReach, type AgentState, type PanelEvent, type Withheld } from './events.ts'
import { redactUrl } from './redact-url.ts'
import { fromEngineEvent } from './from-engine.ts'

const wireAgentId = (n: number): AgentId => `wire:${n}`

type Of<T extends PanelEvent['type']> = Extract<PanelEvent, { readonly type: T }>

/**
 * `withheld`: why the request went out as the page made it (its reminders then say where they would
 * go); `reach`: the transport that first carried the agent's requests.
 */
export function toPanelEvent(event: WireEvent, url: string, withheld?: Withheld, reach?: AgentReach): PanelEvent {
  const agentId = wireAgentId(event.agentId)
  const held = withheld === undefined ? {} : { withheld }
  switch (event.type) {
    case 'agent':
      return { type: 'agent', at: event.at, agent: { id: agentId, kind: 'wire', label: headOf(event.label, LIMITS.label), format: event.format, ...reachField(reach) } }
    case 'request': {
      const { at, format, calls, remindersInserted, rewritten } = event
      return { type: 'request', at, agentId, url: headOf(redactUrl(url), LIMITS.url), format, calls, remindersInserted, rewritten: rewritten && withheld === undefined, ...held }
    }
    case 'reminder':
      // Due inside a server's loop: shown only, whatever the origin's setting, and with no place
      // in any request (docs/panel.md, "Would remind").
      if (event.serverLoop) return { ...(fromEngineEvent(event) as Of<'reminder'>), agentId, ...tokensOf(event), withheld: 'server-loop' }
      return { ...(fromEngineEvent(event) as Of<'reminder'>), agentId, ...tokensOf(event), placement: headOf(event.placement, LIMITS.label), ...held }
    case 'call':
      return { ...(fromEngineEvent(event) as Of<'call'>), agentId }
    case 'chain-reset':
      return { ...(fromEngineEvent(event) as Of<'reset'>), agentId }
    case 'blocked':
      return { ...(fromEngineEvent(event) as Of<'blocked'>), agentId, ...tokensOf(event), wouldBlock: event.wouldBlock }
  }
}

/** The tokens a wire agent's run spent, when its event tells them (docs/zero-code.md, "Waste"). */
const tokensOf = ({ wasteTokens }: { readonly wasteTokens?: number }): { wasteTokens?: number } => (wasteTokens === undefined ? {} : { wasteTokens })

/** A wire agent's state as a `snapshot` event lists it. */
export function toAgentState(state: WireAgentState, reach?: AgentReach): AgentState {
  const { agentId, format, label, tool, canonicalArguments, count, nextThreshold } = state
  return {
    id: wireAgentId(agentId),
    kind: 'wire',
    label: headOf(label, LIMITS.label),
    format,
    ...reachField(reach),
    ...(tool === undefined ? {} : { tool: headOf(tool, LIMITS.toolName), args: headOf(canonicalArguments!, LIMITS.args) }),
    count,
    nextThreshold,
  }
}

const reachField = (reach: AgentReach | undefined): { reach?: AgentReach } => (reach === undefined ? {} : { reach })

/** The reach of the agents read from each agent event stream (docs/zero-code.md, "Reach"). */
export const STREAM_REACH: Readonly<Record<AgentStreamProtocol, AgentReach>> = { 'ui-message-stream': 'ui-stream', 'ag-ui': 'ag-ui' }

/**
 * The reach of a wire agent of `format`: its protocol's for the two agent-stream formats, whether
 * the guard first met it in the stream a server's loop sent or in a request that crossed the page
 * (the agent is the conversation, the chat id or the AG-UI thread, whatever carried its first
 * call); for any other format, the transport's.
 */
export function reachOfFormat(format: WireFormat, transport: AgentReach): AgentReach {
  if (format === 'ai-sdk-ui') return 'ui-stream'
  if (format === 'ag-ui') return 'ag-ui'
  return transport
}
