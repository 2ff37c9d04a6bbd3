// What the mock model's wire formats (mock-llm.ts) share: the shape of a format's validator and
// answer builder, the turn it answers with, and the small helpers they all use.
import type { LlmFormat, ScriptedCall } from './mock-llm.ts'

export type Json = Record<string, unknown>
export type Turn = { readonly calls: readonly (ScriptedCall & { readonly id: string })[] } | { readonly text: string }

export interface Format {
  readonly format: LlmFormat
  /** The model named by the request (Gemini names it in the path). */
  model(body: Json, path: string): string
  stream(body: Json, url: URL): boolean
  /** Why the request is invalid, or undefined. */
  validate(body: Json): string | undefined
  /** How many tool-call turns the model has taken in this conversation. */
  stepsTaken(body: Json): number
  idPrefix: string
  /** `id`: the response's id, where the format has one. */
  respond(turn: Turn, model: string, stream: boolean, id: string): { json?: unknown; events?: SseEvent[] }
}

export interface SseEvent {
  readonly event?: string
  readonly data: unknown
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
export const CREATED = 1_700_000_000

/** Fails the validation with `reason`. */
export class Invalid extends Error {}
export const invalid = (reason: string): never => {
  throw new Invalid(reason)
}

export const argsText = (call: ScriptedCall) => JSON.stringify(call.args)

/** The text in small pieces, as a model streams it. */
export function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? ['']
}

export function turn2id(turn: Turn): string {
  return 'calls' in turn ? turn.calls[0]!.id : 'final'
}
