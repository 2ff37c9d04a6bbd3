// Who a conversation is: one conversation is one agent, known by its format, its system prompt and
// its first user message. A subagent has a prompt of its own, so it is an agent of its own.
import { headOf } from '../text-head.ts'
import { plainText } from './content.ts'
import type { Conversation, WireFormat } from './types.ts'

/** Enough of each text to tell agents apart, bounded so a huge first message costs no more. */
const IDENTITY_CHARS = 4_096
const LABEL_WORDS = 8
const LABEL_CHARS = 60

const FORMAT_NAMES: Readonly<Record<WireFormat, string>> = {
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
  gemini: 'Gemini',
  'ai-sdk-ui': 'AI SDK chat',
  'ag-ui': 'AG-UI',
  'openai-realtime': 'OpenAI Realtime',
  'gemini-live': 'Gemini Live',
}

/** The format's name, for a label that has nothing better. */
export const formatName = (format: WireFormat): string => FORMAT_NAMES[format]

/** The key a conversation is remembered by across its requests. */
export function conversationKey(format: WireFormat, conversation: Conversation): string {
  // A format that names its conversations says itself which requests are one agent: two chats
  // that start with the same prompt are two agents, and one chat stays one agent throughout.
  if (conversation.id !== undefined) return [format, 'id', conversation.id].join('\u0000')
  const system = plainText(conversation.system, IDENTITY_CHARS)
  const prompt = plainText(conversation.firstPrompt, IDENTITY_CHARS)
  // The full lengths keep apart two texts that share their first few thousand characters.
  return [format, system.length, system.text, prompt.length, prompt.text].join('\u0000')
}

/** A short name for the panel: the system prompt's first words (else the first prompt's). */
export function conversationLabel(format: WireFormat, conversation: Conversation): string {
  const source = plainText(conversation.system, 4 * LABEL_CHARS).text.trim() || plainText(conversation.firstPrompt, 4 * LABEL_CHARS).text.trim()
  if (source === '') return `${FORMAT_NAMES[format]} agent`
  const words = source.split(/\s+/)
  const head = words.slice(0, LABEL_WORDS).join(' ')
  const label = headOf(head, LABEL_CHARS)
  return words.length > LABEL_WORDS || label.length < head.length ? `${label}…` : label
}
