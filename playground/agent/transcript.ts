// What an agent's conversation holds: the wire messages plus what the page knows about each
// (which tool answered, where a reminder came from). The model gets only the wire messages.
import type { ChatMessage } from './wire.ts'
import type { GuardVia } from './guard-port.ts'

type Message<R extends ChatMessage['role']> = Extract<ChatMessage, { role: R }>

export type TranscriptEntry =
  | { readonly kind: 'system'; readonly message: Message<'system'> }
  /** A prompt from the user (or, for a subagent, its task); it resets the agent's chain. */
  | { readonly kind: 'prompt'; readonly message: Message<'user'> }
  | { readonly kind: 'assistant'; readonly message: Message<'assistant'> }
  | {
      readonly kind: 'tool-result'
      readonly message: Message<'tool'>
      readonly tool: string
      readonly isError: boolean
      readonly denied: boolean
      /** The guard blocked the call (`stopAfter`): it did not run, the result is the guard's feedback. */
      readonly blocked?: true
    }
  | {
      /** A guard reminder: a plain user message on the wire; its source stays here. */
      readonly kind: 'reminder'
      readonly message: Message<'user'>
      readonly via: GuardVia
      /** The source's summary, e.g. `read_file × 3`. */
      readonly summary?: string
    }

export function wireMessages(entries: readonly TranscriptEntry[]): ChatMessage[] {
  return entries.map((entry) => entry.message)
}
