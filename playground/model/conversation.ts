// How the scripted model reads a request: the turn since the user's last prompt, as steps of
// tool calls with their results and the guard notices that followed them.

interface ReadCall {
  readonly name: string
  /** The parsed arguments, or the raw text when it is not JSON. */
  readonly args: unknown
  /** The tool's result text, or undefined when the request has none for this call. */
  readonly result: string | undefined
}

interface ReadStep {
  readonly calls: readonly ReadCall[]
  /** User messages that followed this step's results and tell the model it is repeating itself. */
  readonly notices: readonly string[]
}

export interface Conversation {
  readonly system: string
  /** The user's latest prompt: the model's current task. */
  readonly prompt: string
  /** The steps taken since that prompt, oldest first. */
  readonly steps: readonly ReadStep[]
  /** The model's answers (assistant text with no tool call) in the whole conversation, oldest first. */
  readonly answers: readonly string[]
  /** User messages after the model's last answer that tell it it gives the same answer again. */
  readonly answerNotices: readonly string[]
}

interface WireMessage {
  readonly role: string
  readonly content?: unknown
  readonly tool_calls?: readonly { readonly id: string; readonly function: { readonly name: string; readonly arguments: string } }[]
  readonly tool_call_id?: string
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((part: unknown) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('\n')
}

/** Talks about repeating: the guard's texts all do ("again and again" is the same-tool reminder's). */
const REPEATING = /repeat|again and again/i

/**
 * A guard notice, as a model would take it: a user message that comes right after tool results
 * (or after another notice) and talks about repeating. Anything else from the user is a prompt.
 */
function isNotice(messages: readonly WireMessage[], index: number): boolean {
  const message = messages[index]!
  if (message.role !== 'user' || !REPEATING.test(textOf(message.content))) return false
  for (let i = index - 1; i >= 0; i--) {
    const before = messages[i]!
    if (before.role === 'tool') return true
    if (before.role !== 'user' || !REPEATING.test(textOf(before.content))) return false
  }
  return false
}

/** The repeated-answer reminder says "the same answer" (docs/playground.md, "Scenarios": same-answer). */
const SAME_ANSWER = /same answer/i

const isAnswer = (message: WireMessage): boolean => message.role === 'assistant' && !message.tool_calls?.length

/**
 * A notice about the model's answers: a user message that says it is the same answer again and
 * follows an answer, maybe after other user messages (the reminder goes after the repeated answer,
 * so the next prompt may come before or after it).
 */
function isAnswerNotice(messages: readonly WireMessage[], index: number): boolean {
  if (!SAME_ANSWER.test(textOf(messages[index]!.content))) return false
  for (let i = index - 1; i >= 0; i--) {
    const before = messages[i]!
    if (before.role !== 'user') return isAnswer(before)
  }
  return false
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Reads a request's messages, which `validateRequest` has already checked. */
export function readConversation(messages: readonly WireMessage[]): Conversation {
  const system = messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content))
    .join('\n')
  let start = 0
  let prompt = ''
  const answers: string[] = []
  let answerNotices: string[] = []
  messages.forEach((m, i) => {
    if (isAnswer(m)) {
      answers.push(textOf(m.content))
      answerNotices = []
    } else if (m.role === 'user' && isAnswerNotice(messages, i)) {
      answerNotices.push(textOf(m.content))
    } else if (m.role === 'user' && !isNotice(messages, i)) {
      start = i + 1
      prompt = textOf(m.content)
    }
  })
  const results = new Map<string, string>()
  for (const m of messages) if (m.role === 'tool' && m.tool_call_id !== undefined) results.set(m.tool_call_id, textOf(m.content))
  const steps: { calls: ReadCall[]; notices: string[] }[] = []
  for (let i = start; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role === 'assistant' && m.tool_calls?.length) {
      steps.push({ calls: m.tool_calls.map((c) => ({ name: c.function.name, args: parse(c.function.arguments), result: results.get(c.id) }) satisfies ReadCall), notices: [] })
    } else if (m.role === 'user' && steps.length > 0) {
      steps.at(-1)!.notices.push(textOf(m.content))
    }
  }
  return { system, prompt, steps, answers, answerNotices }
}

/** Every call of the turn, in order. */
export function callsOf(conversation: Conversation): ReadCall[] {
  return conversation.steps.flatMap((s) => s.calls)
}

/** The index of the first step followed by a notice, or -1 when the model has read none. */
export function firstNoticeStep(conversation: Conversation): number {
  return conversation.steps.findIndex((s) => s.notices.length > 0)
}
