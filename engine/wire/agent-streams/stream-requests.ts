// Which request a stream of each agent protocol answers: `useChat`'s body of UI messages for the
// AI SDK's UI message stream, a `RunAgentInput` for AG-UI. A response is read only when its
// request is that protocol's: its history is the agent's, and the stream continues it.
import { listOf } from '../content.ts'
import { agUi, isRunAgentInput } from '../formats/ag-ui.ts'
import { aiSdkUi, isUiMessage } from '../formats/ai-sdk-ui.ts'
import type { AgentStreamProtocol, JsonObject, WireFormatAdapter } from '../types.ts'

interface StreamRequest {
  readonly adapter: WireFormatAdapter
  /** Whether a parsed request body is what this protocol's client sends. */
  readonly isRequest: (body: JsonObject) => boolean
}

/** `DefaultChatTransport`'s body (`{ id, messages, trigger, ... }`): UI messages, and the chat's id when it sends one. */
function isChatRequest(body: JsonObject): boolean {
  const messages = listOf(body.messages)
  return messages.length > 0 && messages.every(isUiMessage)
}

export const STREAM_REQUESTS: Readonly<Record<AgentStreamProtocol, StreamRequest>> = {
  'ui-message-stream': { adapter: aiSdkUi, isRequest: isChatRequest },
  'ag-ui': { adapter: agUi, isRequest: isRunAgentInput },
}
