// A small, real agent loop as an in-page agent would write it, driven by a scripted model (no
// network). It runs each step's tool calls in parallel, reports every finished call to the guard's
// post-execute waterfall in the order the calls were issued, and appends the reminders the guard
// hands back as user messages after the step's tool results. Before running a call it asks the
// guard's pre-execute gate, which refuses a call only when `stopAfter` is configured.
import type { PostToolDecision, RepeatToolGuard } from '../../../../engine/index.ts'

interface TextPart {
  readonly type: 'text'
  readonly text: string
}
interface ToolCallPart {
  readonly type: 'tool-call'
  readonly id: string
  readonly name: string
  readonly arguments: unknown
}
interface ToolResultPart {
  readonly type: 'tool-result'
  readonly id: string
  readonly name: string
  readonly output: string
  readonly isError: boolean
}

export type Message =
  | { readonly role: 'user'; readonly content: readonly TextPart[]; readonly source?: unknown }
  | { readonly role: 'assistant'; readonly content: readonly (TextPart | ToolCallPart)[] }
  | { readonly role: 'tool'; readonly content: readonly [ToolResultPart] }

export interface Agent {
  readonly name: string
  readonly parent?: Agent
  readonly history: Message[]
}

export function createAgent(name: string, parent?: Agent): Agent {
  return { name, ...(parent && { parent }), history: [] }
}

/** What the model answers in one turn: tool calls (issued together) or a final text. */
export type ModelTurn = { readonly calls: readonly { readonly name: string; readonly arguments: unknown }[] } | { readonly text: string }

interface ScriptedModel {
  respond(transcript: readonly Message[]): ModelTurn
  /** Every transcript the model was sent, as it was sent. */
  readonly requests: readonly (readonly Message[])[]
}

/** Answers with the scripted turns in order, recording each transcript it is sent. */
export function scriptedModel(turns: readonly ModelTurn[]): ScriptedModel {
  const requests: Message[][] = []
  return {
    requests,
    respond(transcript) {
      requests.push(structuredClone(transcript) as Message[])
      const turn = turns[requests.length - 1]
      if (!turn) throw new Error(`the script has ${turns.length} turns; the loop asked for turn ${requests.length}`)
      return turn
    },
  }
}

interface ToolContext {
  readonly agent: Agent
}
/**
 * What a tool returns: text, or structured content (an object, as an MCP tool's
 * `structuredContent`), which the loop reports to the guard as it is and shows the model as JSON.
 */
export type ToolOutput = string | object
export type Tool = (args: never, context: ToolContext) => ToolOutput | Promise<ToolOutput>

export interface LoopOptions {
  readonly guard: RepeatToolGuard
  readonly agent: Agent
  readonly model: ScriptedModel
  readonly tools: Readonly<Record<string, Tool>>
  readonly prompt: string
  /** The permission layer: a call it refuses is not run, and reaches the guard as denied. */
  readonly permit?: (name: string, args: unknown) => boolean
  /** Another post-execute plugin downstream of the guard. */
  readonly downstream?: (name: string, args: unknown) => PostToolDecision | Promise<PostToolDecision>
}

const MAX_STEPS = 50

/** Runs the agent until the model answers with text; returns that text. */
export async function runAgent(options: LoopOptions): Promise<string> {
  const { guard, agent, model } = options
  agent.history.push({ role: 'user', content: [{ type: 'text', text: options.prompt }] })
  guard.promptSubmit(agent)
  for (let step = 1; step <= MAX_STEPS; step++) {
    const turn = model.respond(agent.history)
    if ('text' in turn) {
      agent.history.push({ role: 'assistant', content: [{ type: 'text', text: turn.text }] })
      return turn.text
    }
    const calls = turn.calls.map((call, i): ToolCallPart => ({ type: 'tool-call', id: `call_${step}_${i + 1}`, ...call }))
    agent.history.push({ role: 'assistant', content: calls })
    const outcomes = await Promise.all(calls.map((call) => execute(options, call)))
    // The guard sees the calls in the order they were issued, whatever order they finished in.
    const decisions = await Promise.all(
      calls.map((call, i) => {
        const downstream = options.downstream
        return guard.postExecute({ agent, name: call.name, arguments: call.arguments }, outcomes[i], downstream && (() => downstream(call.name, call.arguments)))
      }),
    )
    calls.forEach((call, i) =>
      agent.history.push({ role: 'tool', content: [{ type: 'tool-result', id: call.id, name: call.name, output: textOf(outcomes[i]!.content), isError: outcomes[i]!.isError }] }),
    )
    for (const decision of decisions) {
      for (const context of decision.additionalContexts ?? []) agent.history.push(context as Message)
      if (decision.kind === 'block') agent.history.push({ role: 'user', content: [{ type: 'text', text: decision.feedback }] })
    }
  }
  throw new Error(`the agent did not finish within ${MAX_STEPS} steps`)
}

/** The text the model is shown for a tool's output (a BigInt as its digits). */
function textOf(output: ToolOutput): string {
  return typeof output === 'string' ? output : JSON.stringify(output, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}` : value))
}

interface Outcome {
  readonly content: ToolOutput
  readonly isError: boolean
  readonly denied: boolean
}

async function execute(options: LoopOptions, call: ToolCallPart): Promise<Outcome> {
  // The guard's own gate (opt-in `stopAfter`): a blocked call is not run, and is reported as denied.
  const gate = options.guard.preExecute({ agent: options.agent, name: call.name, arguments: call.arguments })
  if (gate.kind === 'block') return { content: gate.feedback, isError: true, denied: true }
  if (options.permit && !options.permit(call.name, call.arguments)) return { content: `Permission denied: ${call.name}`, isError: true, denied: true }
  const tool = options.tools[call.name]
  if (!tool) return { content: `Unknown tool: ${call.name}`, isError: true, denied: false }
  try {
    const args = typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments
    return { content: await tool(args as never, { agent: options.agent }), isError: false, denied: false }
  } catch (error) {
    return { content: `Error: ${(error as Error).message}`, isError: true, denied: false }
  }
}
