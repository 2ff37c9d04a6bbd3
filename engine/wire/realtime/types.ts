// What a realtime session's messages say to the guard, whatever the protocol: the OpenAI Realtime
// events and Gemini Live's BidiGenerateContent messages are each read into these shapes by their
// dialect (openai-realtime.ts, gemini-live.ts), and the session (realtime-session.ts) runs them
// through the chain rules (docs/zero-code.md, "Realtime sessions").
import type { JsonObject } from '../types.ts'

/** The realtime protocols a WebSocket session may speak; each is also the wire format of its agents. */
export const REALTIME_PROTOCOLS = ['openai-realtime', 'gemini-live'] as const
export type RealtimeProtocol = (typeof REALTIME_PROTOCOLS)[number]

/** A tool call the model made, as far as one event tells it (the rest may come in a later one). */
export interface RealtimeCall {
  readonly id: string
  readonly name?: string
  /** OpenAI: JSON text; Gemini: an object. */
  readonly arguments?: unknown
}

/** The client's result of one call: by id, else (Gemini without ids) by name. */
export interface RealtimeOutput {
  readonly id?: string
  readonly name?: string
  readonly content: unknown
  readonly isError: boolean
}

/** What one message says; every field is optional, most messages say nothing at all. */
export interface RealtimeNews {
  /** The server's first event of a session (or its echo of the session): the connection is a realtime session. */
  readonly opens?: true
  readonly instructions?: string
  readonly model?: string
  readonly calls?: readonly RealtimeCall[]
  readonly cancelled?: readonly string[]
  readonly outputs?: readonly RealtimeOutput[]
  /** A real user turn (typed text, or speech the server committed): the chain starts over. */
  readonly prompt?: true
}

/** One protocol: which messages matter, what they say, and what a reminder is in it. */
export interface RealtimeDialect {
  readonly protocol: RealtimeProtocol
  /**
   * The message's kind read from the first characters of its text (its `type`, or its one
   * top-level key), so that audio is never parsed; undefined when the text does not start so.
   */
  kindOf(text: string): string | undefined
  readonly serverKinds: ReadonlySet<string>
  readonly clientKinds: ReadonlySet<string>
  /** The kind of a parsed message, for a text whose head did not tell it. */
  kindOfMessage(message: JsonObject): string | undefined
  server(message: JsonObject): RealtimeNews
  client(message: JsonObject): RealtimeNews
  /** The text of the message that puts `reminder` before the model, as a user turn. */
  reminderMessage(reminder: string): string
  /** Where such a message goes, for the panel: after the client's result of `callId`. */
  placement(callId: string): string
}
