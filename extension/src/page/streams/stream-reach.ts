// The reach an agent of an agent-stream protocol is shown with (docs/zero-code.md, "Reach"), whether
// the guard first met it in the stream a server's loop sent or in a request that crossed the page:
// the agent is the conversation (the chat id, the AG-UI thread), whatever carried its first call.
import type { AgentStreamProtocol, WireFormat } from '../../../../engine/wire/index.ts'
import type { AgentReach } from '../../protocol/events.ts'

export const STREAM_REACH: Readonly<Record<AgentStreamProtocol, AgentReach>> = { 'ui-message-stream': 'ui-stream', 'ag-ui': 'ag-ui' }

/** The reach of a wire agent of `format`: its protocol's for the two agent-stream formats, else the transport's. */
export function reachOfFormat(format: WireFormat, transport: AgentReach): AgentReach {
  if (format === 'ai-sdk-ui') return 'ui-stream'
  if (format === 'ag-ui') return 'ag-ui'
  return transport
}
