// The agent loop: send the conversation, run the tools the model asks for (unless the guard
// blocks one), append the results
// and then the guard's reminders, until the model answers or the step limit is reached.
import type { Agent, AgentStatus } from './agent.ts'
import { complete, type ModelEndpoint } from './chat-client.ts'
import type { GuardPort, Reminder } from './guard-port.ts'
import { runTool } from './tools/registry.ts'
import { definitionOf, type SubagentHost, type ToolOutcome, type Workspace } from './tools/tool.ts'
import { wireMessages } from './transcript.ts'
import type { Turn, Turns } from './turns.ts'
import type { ToolCall } from './wire.ts'
import { errorText } from '../../engine/safe-reading.ts'

export interface LoopEnvironment {
  readonly endpoint: ModelEndpoint
  /** Absent when the guard is switched off. */
  readonly guard?: GuardPort
  readonly workspace: Workspace
  readonly turns: Turns
  /** Model requests allowed per prompt. */
  readonly stepLimit: number
  readonly signal: AbortSignal
  /** Called whenever an agent's conversation or status changed. */
  readonly changed: () => void
}

/** Gives `agent` a user prompt (its chain starts over) and runs it until it answers or stops. */
export async function prompt(agent: Agent, text: string, env: LoopEnvironment, subagents?: SubagentHost): Promise<Agent> {
  agent.entries.push({ kind: 'prompt', message: { role: 'user', content: text } })
  env.guard?.userPrompt(agent)
  delete agent.error
  setStatus(agent, 'waiting', env)
  try {
    for (let steps = 0; ; steps++) {
      if (steps === env.stepLimit) return setStatus(agent, 'step-limit', env)
      const turn = await env.turns.take()
      try {
        env.signal.throwIfAborted()
        setStatus(agent, 'working', env)
        if (await step(agent, env, turn, subagents)) return setStatus(agent, 'answered', env)
      } finally {
        turn.release()
      }
      setStatus(agent, 'waiting', env)
    }
  } catch (error) {
    if (env.signal.aborted) return setStatus(agent, 'stopped', env)
    agent.error = errorText(error)
    return setStatus(agent, 'failed', env)
  }
}

function setStatus(agent: Agent, status: AgentStatus, env: LoopEnvironment): Agent {
  agent.status = status
  env.changed()
  return agent
}

/** One model request and the tools it asks for; true when the model answered instead. */
async function step(agent: Agent, env: LoopEnvironment, turn: Turn, subagents?: SubagentHost): Promise<boolean> {
  const messages = wireMessages(agent.entries)
  agent.sentCount = messages.length
  const completion = await complete(env.endpoint, { messages, tools: agent.tools.map(definitionOf), tool_choice: 'auto' }, env.signal)
  agent.received = completion.echo?.messages
  const reply = completion.choices[0]!.message
  const calls = (Array.isArray(reply.tool_calls) ? reply.tool_calls : []).map((call, i) => normaliseCall(call, `call_${agent.entries.length}_${i}`))
  agent.entries.push({ kind: 'assistant', message: { role: 'assistant', content: reply.content ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) } })
  env.changed()
  if (calls.length === 0) return true

  const context = { workspace: env.workspace, ...(subagents ? { subagents } : {}), yieldTurnUntil: turn.yieldUntil }
  const reminders: Reminder[] = []
  // Calls run in the order the model issued them; the guard counts them in that order too.
  for (const call of calls) {
    const { name, arguments: raw } = call.function
    const parsed = parseArguments(raw)
    const args = parsed.ok ? parsed.value : raw
    // A blocked call does not run: the model reads why as its result, and the guard is told it
    // was denied, so it counts like any refused call.
    const blocked = env.guard?.beforeCall(agent, name, args)
    const outcome: ToolOutcome =
      blocked !== undefined
        ? { content: blocked, isError: true, denied: true }
        : parsed.ok
          ? await runTool(agent.tools, name, parsed.value, context)
          : { content: `Error: the arguments of ${name} are not valid JSON (${parsed.error})`, isError: true }
    agent.entries.push({
      kind: 'tool-result',
      message: { role: 'tool', tool_call_id: call.id, content: outcome.content },
      tool: name,
      isError: outcome.isError === true,
      denied: outcome.denied === true,
      ...(blocked !== undefined && { blocked: true }),
    })
    env.changed()
    if (env.guard) reminders.push(...(await env.guard.afterCall(agent, name, args, outcome)))
  }
  // After all of the step's results: a message between them would break the wire format.
  for (const reminder of reminders)
    agent.entries.push({ kind: 'reminder', message: { role: 'user', content: reminder.text }, via: reminder.via, ...(reminder.summary ? { summary: reminder.summary } : {}) })
  if (reminders.length > 0) env.changed()
  return false
}

/** Keeps what the wire format defines; a server that omits a call id gets a stable one. */
function normaliseCall(call: ToolCall, fallbackId: string): ToolCall {
  const fn: Partial<ToolCall['function']> = call.function ?? {}
  return {
    id: typeof call.id === 'string' && call.id !== '' ? call.id : fallbackId,
    type: 'function',
    function: { name: String(fn.name ?? ''), arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}) },
  }
}

function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: raw.trim() === '' ? {} : JSON.parse(raw) }
  } catch (error) {
    return { ok: false, error: errorText(error) }
  }
}
