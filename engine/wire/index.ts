// Zero-code mode: guarding an agent from the LLM requests it sends (docs/zero-code.md, "How it works").
export { createWireGuard, type WireGuard } from './wire-guard.ts'
export type { WireAgentState, WireEvent, WireInspection } from './types.ts'
