// Zero-code mode: guarding an agent from the LLM requests it sends (docs/zero-code.md, "How it works").
export { createWireGuard, type WireGuard } from './wire-guard.ts'
export type { ResponseReading } from './usage/response-reading.ts'
export type { AgentStreamProtocol, AgentStreamReading, WireAgentState, WireEvent, WireInspection, WireFormat } from './types.ts'
export { AGENT_STREAM_PROTOCOLS, WIRE_FORMATS } from './types.ts'
// OpenAI Responses continued by id: the responses a page reads, remembered and chained.
export { createStatefulResponses, type ResponsesRequest, type StatefulResponses } from './stateful/responses.ts'
// A request continuing a response that is still being read waits for that reading, and only for it.
export { createReadsInProgress, LONGEST_WAIT_MS, type ReadingHandle, type ReadsInProgress } from './stateful/reads-in-progress.ts'
export { responseSink, type ResponseSink } from './stateful/response-sink.ts'
// Realtime sessions: the messages of one connection, read as they pass.
export type { RealtimeSent, RealtimeSession } from './realtime/realtime-session.ts'
export { REALTIME_PROTOCOLS, type RealtimeProtocol } from './realtime/types.ts'
