// The scripted model as an OpenAI-compatible endpoint: validates a Chat Completions request the
// way the real API does, runs the scenario named by the model id, and answers with a completion.
import type { ChatCompletion, ChatErrorBody, ToolCall } from '../agent/wire.ts'
import { readConversation } from './conversation.ts'
import { SCRIPTED_MODEL_PREFIX, scriptedModelId } from './endpoint.ts'
import { findScenario, SCENARIOS } from './scenarios/index.ts'

export interface ModelAnswer {
  readonly status: number
  readonly body: ChatCompletion | ChatErrorBody | ModelList
}

interface ModelList {
  readonly object: 'list'
  readonly data: readonly { readonly id: string; readonly object: 'model'; readonly owned_by: string }[]
}

export function listModels(): ModelList {
  return { object: 'list', data: SCENARIOS.map((s) => ({ id: scriptedModelId(s.id), object: 'model', owned_by: 'playground' })) }
}

class RequestError extends Error {
  constructor(
    message: string,
    readonly param: string | null,
    readonly status = 400,
    readonly code: string | null = null,
  ) {
    super(message)
  }
}

type Message = { role: string; content?: unknown; tool_calls?: ToolCall[]; tool_call_id?: string }

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool'])

function validateMessages(value: unknown): Message[] {
  if (!Array.isArray(value) || value.length === 0) throw new RequestError("'messages' must be a non-empty array", 'messages')
  const open = new Set<string>()
  value.forEach((m: unknown, i) => {
    const at = `messages[${i}]`
    if (typeof m !== 'object' || m === null) throw new RequestError(`${at} must be an object`, at)
    const { role, content, tool_calls: calls, tool_call_id: answers } = m as Record<string, unknown>
    if (typeof role !== 'string' || !ROLES.has(role)) throw new RequestError(`${at}.role must be one of ${[...ROLES].join(', ')}`, `${at}.role`)
    if (role !== 'tool' && open.size > 0)
      throw new RequestError(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
        at,
      )
    if (role === 'tool') {
      if (typeof answers !== 'string' || !open.has(answers))
        throw new RequestError(`Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (${at}).`, `${at}.tool_call_id`)
      open.delete(answers)
    }
    if (role === 'assistant' && calls !== undefined) {
      if (!Array.isArray(calls)) throw new RequestError(`${at}.tool_calls must be an array`, `${at}.tool_calls`)
      calls.forEach((c: unknown, j) => {
        const fn = (c as { function?: { name?: unknown; arguments?: unknown } } | null)?.function
        const id = (c as { id?: unknown } | null)?.id
        if (typeof id !== 'string' || typeof fn?.name !== 'string' || typeof fn.arguments !== 'string')
          throw new RequestError(`${at}.tool_calls[${j}] must have an id, a function name and arguments as a string`, `${at}.tool_calls[${j}]`)
        open.add(id)
      })
    }
    const contentOk = typeof content === 'string' || Array.isArray(content) || (role === 'assistant' && (content === null || content === undefined))
    if (!contentOk) throw new RequestError(`${at}.content must be a string or an array of content parts`, `${at}.content`)
  })
  if (open.size > 0) throw new RequestError(`The tool_call_ids ${[...open].join(', ')} did not have response messages.`, 'messages')
  return value as Message[]
}

function completion(model: string, messages: Message[]): ChatCompletion {
  const scenario = findScenario(model.slice(SCRIPTED_MODEL_PREFIX.length))
  if (!model.startsWith(SCRIPTED_MODEL_PREFIX) || !scenario)
    throw new RequestError(
      `The model \`${model}\` does not exist. Scripted models: ${listModels()
        .data.map((m) => m.id)
        .join(', ')}`,
      'model',
      404,
      'model_not_found',
    )
  const reply = scenario.reply(readConversation(messages))
  // Ids count the calls already in the conversation, so they are unique and the same every run.
  const before = messages.reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0)
  const turn = messages.filter((m) => m.role === 'assistant').length + 1
  const message =
    'answer' in reply
      ? { role: 'assistant' as const, content: reply.answer }
      : {
          role: 'assistant' as const,
          content: reply.say ?? null,
          tool_calls: reply.calls.map((c, i): ToolCall => ({ id: `call_${before + i + 1}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
        }
  return {
    id: `chatcmpl-${scenario.id}-${turn}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: 'answer' in reply ? 'stop' : 'tool_calls' }],
    echo: { messages },
  }
}

/** Answers one request body (already parsed from JSON, or `undefined` when it was not JSON). */
export function respond(body: unknown): ModelAnswer {
  try {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new RequestError('The request body must be a JSON object.', null)
    const { model, messages, stream } = body as Record<string, unknown>
    if (typeof model !== 'string') throw new RequestError("'model' is required", 'model')
    if (stream === true) throw new RequestError('The scripted model does not stream: send the request without "stream": true.', 'stream')
    return { status: 200, body: completion(model, validateMessages(messages)) }
  } catch (error) {
    if (!(error instanceof RequestError)) throw error
    return { status: error.status, body: { error: { message: error.message, type: 'invalid_request_error', param: error.param, code: error.code } } }
  }
}
