// In-page agents that continue their conversation by id (`previous_response_id`), as the `openai`
// SDK and `@openai/agents` do it: each request sends only the outputs of the previous response's
// tool calls, the rest is the provider's. None of them knows about the guard. Bundled for the
// browser by the test setup.
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool, type OpenAIClient } from '@openai/agents'
import OpenAI from 'openai'
import { z } from 'zod'
import { MAX_STEPS, READ_FILE, runTool, type AgentRun } from './read-file-tool.ts'

export interface StatefulOptions {
  readonly model: string
  readonly system: string
  readonly prompt: string
  readonly stream: boolean
  /** The model that greets first, for the agent whose run continues that greeting by id. */
  readonly greeter?: string
}

/** Every request body as the page made it, before the page's fetch (and the guard) had it. */
const pageBodies: string[] = []
const recordingFetch: typeof fetch = (input, init) => {
  if (typeof init?.body === 'string') pageBodies.push(init.body)
  return fetch(input, init)
}

const client = () => new OpenAI({ baseURL: `${location.origin}/v1`, apiKey: 'test-key', dangerouslyAllowBrowser: true, fetch: recordingFetch })

type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming

/** The whole stream read, as an app showing it would; the response is the one `response.completed` holds. */
async function streamed(openai: OpenAI, params: Params): Promise<OpenAI.Responses.Response> {
  let completed: OpenAI.Responses.Response | undefined
  for await (const event of await openai.responses.create({ ...params, stream: true })) if (event.type === 'response.completed') completed = event.response
  if (!completed) throw new Error('the stream ended without response.completed')
  return completed
}

/** The answer's text (`output_text` is filled in by `create` only, not in a streamed response). */
function textOf(response: OpenAI.Responses.Response): string {
  return response.output.flatMap((item) => (item.type === 'message' ? item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : [])).join('')
}

/** The `openai` SDK's `responses.create`, continued with `previous_response_id` after every tool call. */
async function openaiById(o: StatefulOptions): Promise<AgentRun> {
  const openai = client()
  const results: string[] = []
  let input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: o.prompt }]
  let previous: string | undefined
  for (let step = 0; step < MAX_STEPS; step++) {
    const params: Params = {
      model: o.model,
      instructions: o.system,
      input,
      tools: [{ type: 'function', ...READ_FILE, strict: true }],
      ...(previous === undefined ? {} : { previous_response_id: previous }),
    }
    const response = o.stream ? await streamed(openai, params) : await openai.responses.create(params)
    const calls = response.output.filter((item) => item.type === 'function_call')
    if (calls.length === 0) return { answer: textOf(response), results }
    previous = response.id
    input = calls.map((call) => ({ type: 'function_call_output', call_id: call.call_id, output: runTool(results, call.name, JSON.parse(call.arguments)) }))
  }
  throw new Error('step limit reached')
}

/**
 * `@openai/agents` 0.20.0 sends the whole input on every turn unless the run is given a
 * conversation on the provider's side: with `previousResponseId` it sends each turn's new items
 * only, with `previous_response_id`. The run continues a greeting the provider keeps.
 */
async function agentsById(o: StatefulOptions): Promise<AgentRun> {
  const openai = client()
  // The project's `openai` (the agents package bundles a client of its own version; the API is the same).
  setDefaultOpenAIClient(openai as unknown as OpenAIClient)
  setTracingDisabled(true)
  const results: string[] = []
  const readFile = tool({
    name: READ_FILE.name,
    description: READ_FILE.description,
    parameters: z.object({ path: z.string() }),
    execute: async ({ path }) => runTool(results, READ_FILE.name, { path }),
  })
  const agent = new Agent({ name: 'reader', instructions: o.system, model: o.model, tools: [readFile] })
  const greeting = await openai.responses.create({ model: o.greeter!, input: [{ role: 'user', content: 'Hello' }] })
  const result = o.stream
    ? await run(agent, o.prompt, { previousResponseId: greeting.id, maxTurns: MAX_STEPS, stream: true })
    : await run(agent, o.prompt, { previousResponseId: greeting.id, maxTurns: MAX_STEPS })
  if (o.stream && 'completed' in result) {
    for await (const _ of result.toStream()) void _
    await result.completed
  }
  return { answer: String(result.finalOutput), results }
}

export const statefulAgents = { openaiById, agentsById }
export type StatefulAgentName = keyof typeof statefulAgents

Object.assign(window, { statefulAgents, pageBodies })
