// In-page agents written the way their SDKs' docs show, for the browser: each loops on the model's
// tool calls until it answers. None of them knows about the guard: zero-code mode has to find them
// in their fetch traffic. Bundled for the browser by the test setup.
import Anthropic from '@anthropic-ai/sdk'
import { createOpenAI } from '@ai-sdk/openai'
import { GoogleGenAI, type Content, type Part } from '@google/genai'
import { generateText, stepCountIs, streamText, tool } from 'ai'
import OpenAI from 'openai'
import { z } from 'zod'
import { answerCalls, readChatStream } from './chat-stream.ts'
import { MAX_STEPS, origin, READ_FILE, runTool, type AgentOptions, type AgentRun } from './read-file-tool.ts'

export type { AgentOptions, AgentRun }

async function openaiChat(o: AgentOptions): Promise<AgentRun> {
  const client = new OpenAI({ baseURL: `${origin()}/v1`, apiKey: 'test-key', dangerouslyAllowBrowser: true })
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: o.system },
    { role: 'user', content: o.prompt },
  ]
  const results: string[] = []
  for (let step = 0; step < MAX_STEPS; step++) {
    const stream = await client.chat.completions.create({ model: o.model, messages, tools: [{ type: 'function', function: READ_FILE }], stream: true })
    const { text, calls } = await readChatStream(stream)
    if (calls.length === 0) return { answer: text, results }
    answerCalls(messages, text, calls, results)
  }
  throw new Error('step limit reached')
}

interface PageGuardApi {
  postExecute(exec: { agent: object; name: string; arguments: unknown }, result: object): Promise<{ additionalContexts?: { content: { text: string }[] }[] }>
  promptSubmit(agent: object): void
}

/**
 * The same Chat Completions agent, integrated with the guard's page API in the three documented
 * lines: it inserts the reminders itself, so zero-code mode must leave it alone.
 */
async function openaiChatWithHook(o: AgentOptions): Promise<AgentRun> {
  const guard = (window as unknown as { __REPEAT_TOOL_GUARD__?: PageGuardApi }).__REPEAT_TOOL_GUARD__
  if (!guard) throw new Error('the extension is not installed')
  const client = new OpenAI({ baseURL: `${origin()}/v1`, apiKey: 'test-key', dangerouslyAllowBrowser: true })
  const agent = { name: 'hooked agent' }
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: o.system },
    { role: 'user', content: o.prompt },
  ]
  guard.promptSubmit(agent)
  const results: string[] = []
  for (let step = 0; step < MAX_STEPS; step++) {
    const completion = await client.chat.completions.create({ model: o.model, messages, tools: [{ type: 'function', function: READ_FILE }] })
    const message = completion.choices[0]!.message
    const calls = (message.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [call] : []))
    if (calls.length === 0) return { answer: message.content ?? '', results }
    messages.push({ role: 'assistant', content: message.content, tool_calls: calls })
    const reminders: string[] = []
    for (const call of calls) {
      const args = JSON.parse(call.function.arguments)
      messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(results, call.function.name, args) })
      const decision = await guard.postExecute({ agent, name: call.function.name, arguments: args }, {})
      for (const context of decision.additionalContexts ?? []) reminders.push(context.content[0]!.text)
    }
    for (const text of reminders) messages.push({ role: 'user', content: text })
  }
  throw new Error('step limit reached')
}

async function openaiResponses(o: AgentOptions): Promise<AgentRun> {
  const client = new OpenAI({ baseURL: `${origin()}/v1`, apiKey: 'test-key', dangerouslyAllowBrowser: true })
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: o.prompt }]
  const results: string[] = []
  for (let step = 0; step < MAX_STEPS; step++) {
    const response = await client.responses.create({
      model: o.model,
      instructions: o.system,
      input,
      tools: [{ type: 'function', ...READ_FILE, strict: true }],
      store: false,
    })
    const calls = response.output.filter((item) => item.type === 'function_call')
    if (calls.length === 0) return { answer: response.output_text, results }
    input.push(...calls)
    for (const call of calls) input.push({ type: 'function_call_output', call_id: call.call_id, output: runTool(results, call.name, JSON.parse(call.arguments)) })
  }
  throw new Error('step limit reached')
}

async function anthropic(o: AgentOptions): Promise<AgentRun> {
  const client = new Anthropic({ baseURL: origin(), apiKey: 'test-key', dangerouslyAllowBrowser: true })
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: o.prompt }]
  const results: string[] = []
  for (let step = 0; step < MAX_STEPS; step++) {
    const message = await client.messages
      .stream({ model: o.model, max_tokens: 1024, system: o.system, messages, tools: [{ name: READ_FILE.name, description: READ_FILE.description, input_schema: READ_FILE.parameters }] })
      .finalMessage()
    const uses = message.content.filter((block) => block.type === 'tool_use')
    if (uses.length === 0) return { answer: message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), results }
    messages.push({ role: 'assistant', content: message.content })
    messages.push({ role: 'user', content: uses.map((use) => ({ type: 'tool_result', tool_use_id: use.id, content: runTool(results, use.name, use.input) })) })
  }
  throw new Error('step limit reached')
}

async function gemini(o: AgentOptions): Promise<AgentRun> {
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: origin() } })
  const contents: Content[] = [{ role: 'user', parts: [{ text: o.prompt }] }]
  const results: string[] = []
  for (let step = 0; step < MAX_STEPS; step++) {
    const stream = await ai.models.generateContentStream({
      model: o.model,
      contents,
      config: { systemInstruction: o.system, tools: [{ functionDeclarations: [{ name: READ_FILE.name, description: READ_FILE.description, parametersJsonSchema: READ_FILE.parameters }] }] },
    })
    const parts: Part[] = []
    for await (const chunk of stream) parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []))
    const calls = parts.flatMap((part) => (part.functionCall ? [part.functionCall] : []))
    if (calls.length === 0) return { answer: parts.map((p) => p.text ?? '').join(''), results }
    contents.push({ role: 'model', parts })
    contents.push({
      role: 'user',
      parts: calls.map((call) => ({ functionResponse: { name: call.name, response: { output: runTool(results, call.name ?? '', call.args) } } })),
    })
  }
  throw new Error('step limit reached')
}

/** The AI SDK runs the loop itself; the tool executes in the page. */
function aiSdkTools(results: string[]) {
  return {
    read_file: tool({
      description: READ_FILE.description,
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => runTool(results, 'read_file', { path }),
    }),
  }
}

async function aiSdkResponses(o: AgentOptions): Promise<AgentRun> {
  const provider = createOpenAI({ baseURL: `${origin()}/v1`, apiKey: 'test-key' })
  const results: string[] = []
  const run = await generateText({ model: provider(o.model), system: o.system, prompt: o.prompt, tools: aiSdkTools(results), stopWhen: stepCountIs(MAX_STEPS) })
  return { answer: run.text, results }
}

async function aiSdkChat(o: AgentOptions): Promise<AgentRun> {
  const provider = createOpenAI({ baseURL: `${origin()}/v1`, apiKey: 'test-key' })
  const results: string[] = []
  const run = streamText({ model: provider.chat(o.model), system: o.system, prompt: o.prompt, tools: aiSdkTools(results), stopWhen: stepCountIs(MAX_STEPS) })
  return { answer: await run.text, results }
}

export const agents = { openaiChat, openaiChatWithHook, openaiResponses, anthropic, gemini, aiSdkResponses, aiSdkChat }
export type AgentName = keyof typeof agents

Object.assign(window, { agents })
