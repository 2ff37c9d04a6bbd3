// A scripted model behaviour: a pure function of the conversation it receives, so the same
// request always gets the same answer (and a service worker restarted mid-run loses nothing).
import type { Conversation } from './conversation.ts'

interface ScriptedCall {
  readonly name: string
  /** Serialised as written: key order is kept (the key-order scenario relies on it). */
  readonly arguments: Readonly<Record<string, unknown>>
}

type ScriptedReply = { readonly calls: readonly ScriptedCall[] /** Text the model writes alongside its calls. */; readonly say?: string } | { readonly answer: string }

export interface Scenario {
  /** Used in the URL (`?scenario=<id>`) and in the model id (`scripted/<id>`). */
  readonly id: string
  readonly title: string
  /** What the scenario shows and what to look for in the transcript. */
  readonly description: string
  /** The lead agent: its name (the guard's label for it) and system prompt. */
  readonly lead: { readonly name: string; readonly system: string }
  readonly prompt: string
  /** Whether `delete_path` is allowed when the scenario is picked. */
  readonly allowDelete: boolean
  /** The guard options (a preset id, `?config=<id>`) that change what this scenario shows, if any. */
  readonly preset?: string
  /**
   * The guard switch once the scenario is picked, when the scenario needs it set (else it stays as
   * it was). Off for a loop only zero-code mode sees: an agent that reports its calls to the page
   * API is the page's own, and zero-code mode leaves its requests alone (docs/zero-code.md, "Repeated answers").
   */
  readonly guardOn?: boolean
  reply(conversation: Conversation): ScriptedReply
}

export const call = (name: string, args: Readonly<Record<string, unknown>>): ScriptedCall => ({ name, arguments: args })
