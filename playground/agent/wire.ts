// The OpenAI Chat Completions wire format, as much of it as an agent loop with tools uses.
// Both ends of the playground speak it: the agent loop in the page and the scripted model.

export interface ToolCall {
  readonly id: string
  readonly type: 'function'
  readonly function: { readonly name: string /** A JSON text, exactly as the model wrote it. */; readonly arguments: string }
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly tool_calls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string }

export interface ToolDefinition {
  readonly type: 'function'
  readonly function: { readonly name: string; readonly description: string; readonly parameters: JsonSchema }
}

export interface JsonSchema {
  readonly type: 'object'
  readonly properties: Readonly<Record<string, unknown>>
  readonly required?: readonly string[]
  readonly additionalProperties?: boolean
}

export interface ChatRequest {
  readonly model: string
  readonly messages: readonly ChatMessage[]
  readonly tools?: readonly ToolDefinition[]
  readonly tool_choice?: 'auto' | 'none'
  readonly parallel_tool_calls?: boolean
}

export interface ChatCompletion {
  readonly id: string
  readonly object: 'chat.completion'
  readonly created: number
  readonly model: string
  readonly choices: readonly {
    readonly index: number
    readonly message: Extract<ChatMessage, { role: 'assistant' }>
    readonly finish_reason: 'stop' | 'tool_calls' | 'length'
  }[]
  /**
   * The scripted model only: the messages exactly as they reached it, so the playground can show
   * what was inserted or changed on the way (by the extension's zero-code mode). Real endpoints
   * do not send it.
   */
  readonly echo?: { readonly messages: readonly unknown[] }
}

/** The error body OpenAI-compatible servers answer with. */
export interface ChatErrorBody {
  readonly error: { readonly message: string; readonly type: string; readonly param?: string | null; readonly code?: string | null }
}
