// Node agents written the way their SDKs' docs show, each looping on the model's tool calls until
// it answers: `node agents.mjs <agent>` with MOCK_ORIGIN (the mock model's origin), MODEL, and for
// the agent continuing a greeting by id, GREETER. None of them knows about the guard: it comes with
// `--import`. Prints the run as JSON on stdout. Plain JavaScript, as a Node 20 app runs it.
import Anthropic from '@anthropic-ai/sdk'
import { createOpenAI } from '@ai-sdk/openai'
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool as agentTool } from '@openai/agents'
import { generateText, stepCountIs, tool } from 'ai'
import OpenAI from 'openai'
import { z } from 'zod'

const { MOCK_ORIGIN: origin, MODEL: model, GREETER: greeter } = process.env
const SYSTEM = 'You are a careful coding agent.'
const PROMPT = 'Why is the threshold ignored?'
const MAX_STEPS = 12
const FILES = { 'notes.txt': 'TODO: the config loader ignores "threshold"\nsee loader.ts:42' }
const READ_FILE = {
  name: 'read_file',
  description: 'Read a text file of the project',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
}
/** Every tool result handed back, in order. */
const results = []
const runTool = (name, args) => {
  const result = name === 'read_file' ? (FILES[args?.path] ?? `no such file: ${args?.path}`) : `unknown tool ${name}`
  results.push(result)
  return result
}
const openai = () => new OpenAI({ baseURL: `${origin}/v1`, apiKey: 'test-key' })

async function openaiChat() {
  const client = openai()
  const messages = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: PROMPT },
  ]
  for (let step = 0; step < MAX_STEPS; step++) {
    const stream = await client.chat.completions.create({ model, messages, tools: [{ type: 'function', function: READ_FILE }], stream: true })
    let text = ''
    const calls = []
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta
      text += delta?.content ?? ''
      for (const part of delta?.tool_calls ?? []) {
        calls[part.index] ??= { id: '', name: '', arguments: '' }
        const call = calls[part.index]
        call.id ||= part.id ?? ''
        call.name += part.function?.name ?? ''
        call.arguments += part.function?.arguments ?? ''
      }
    }
    if (calls.length === 0) return text
    messages.push({ role: 'assistant', content: text || null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) })
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(call.name, JSON.parse(call.arguments)) })
  }
  throw new Error('step limit reached')
}

async function openaiResponses() {
  const client = openai()
  const input = [{ role: 'user', content: PROMPT }]
  for (let step = 0; step < MAX_STEPS; step++) {
    const response = await client.responses.create({ model, instructions: SYSTEM, input, tools: [{ type: 'function', ...READ_FILE, strict: true }], store: false })
    const calls = response.output.filter((item) => item.type === 'function_call')
    if (calls.length === 0) return response.output_text
    input.push(...calls)
    for (const call of calls) input.push({ type: 'function_call_output', call_id: call.call_id, output: runTool(call.name, JSON.parse(call.arguments)) })
  }
  throw new Error('step limit reached')
}

/** Continued with `previous_response_id` after every tool call; streamed, read to its end as an app showing it would. */
async function openaiResponsesById() {
  const client = openai()
  let input = [{ role: 'user', content: PROMPT }]
  let previous
  for (let step = 0; step < MAX_STEPS; step++) {
    const params = { model, instructions: SYSTEM, input, tools: [{ type: 'function', ...READ_FILE, strict: true }], ...(previous ? { previous_response_id: previous } : {}) }
    let response
    for await (const event of await client.responses.create({ ...params, stream: true })) if (event.type === 'response.completed') response = event.response
    const calls = response.output.filter((item) => item.type === 'function_call')
    if (calls.length === 0) return response.output.flatMap((item) => (item.type === 'message' ? item.content.map((part) => part.text ?? '') : [])).join('')
    previous = response.id
    input = calls.map((call) => ({ type: 'function_call_output', call_id: call.call_id, output: runTool(call.name, JSON.parse(call.arguments)) }))
  }
  throw new Error('step limit reached')
}

async function anthropic() {
  const client = new Anthropic({ baseURL: origin, apiKey: 'test-key' })
  const messages = [{ role: 'user', content: PROMPT }]
  for (let step = 0; step < MAX_STEPS; step++) {
    const message = await client.messages.create({
      model,
      max_tokens: 1024,
      system: SYSTEM,
      messages,
      tools: [{ name: READ_FILE.name, description: READ_FILE.description, input_schema: READ_FILE.parameters }],
    })
    const uses = message.content.filter((block) => block.type === 'tool_use')
    if (uses.length === 0) return message.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
    messages.push({ role: 'assistant', content: message.content })
    messages.push({ role: 'user', content: uses.map((use) => ({ type: 'tool_result', tool_use_id: use.id, content: runTool(use.name, use.input) })) })
  }
  throw new Error('step limit reached')
}

/** The AI SDK runs the loop itself, over Chat Completions. */
async function aiSdk() {
  const provider = createOpenAI({ baseURL: `${origin}/v1`, apiKey: 'test-key' })
  const tools = { read_file: tool({ description: READ_FILE.description, inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => runTool('read_file', { path }) }) }
  const done = await generateText({ model: provider.chat(model), system: SYSTEM, prompt: PROMPT, tools, stopWhen: stepCountIs(MAX_STEPS) })
  return done.text
}

/** `@openai/agents` continuing a greeting the provider keeps: each turn sends its new items with `previous_response_id`. */
async function openaiAgents() {
  const client = openai()
  setDefaultOpenAIClient(client)
  setTracingDisabled(true)
  const readFile = agentTool({ name: READ_FILE.name, description: READ_FILE.description, parameters: z.object({ path: z.string() }), execute: async ({ path }) => runTool('read_file', { path }) })
  const agent = new Agent({ name: 'reader', instructions: SYSTEM, model, tools: [readFile] })
  const greeting = await client.responses.create({ model: greeter, input: [{ role: 'user', content: 'Hello' }] })
  const done = await run(agent, PROMPT, { previousResponseId: greeting.id, maxTurns: MAX_STEPS })
  return String(done.finalOutput)
}

const agents = { openaiChat, openaiResponses, openaiResponsesById, anthropic, aiSdk, openaiAgents }
const answer = await agents[process.argv[2]]()
process.stdout.write(JSON.stringify({ answer, results }))
