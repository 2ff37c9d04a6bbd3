// In-page agents written with axios, which sends its requests with XMLHttpRequest in a browser:
// each posts a provider's JSON body itself and loops on the model's tool calls until it answers.
// None of them knows about the guard. Next to them, the page's other XHR traffic (xhr-traffic.ts),
// run with and without the extension. Bundled for the browser by the test setup.
import axios from 'axios'
import { MAX_STEPS, origin, READ_FILE, runTool, type AgentOptions, type AgentRun } from './read-file-tool.ts'
import { abortHanging, behaviours, sendBody, startHanging } from './xhr-traffic.ts'

type Json = Record<string, unknown>

async function openaiChat(o: AgentOptions): Promise<AgentRun> {
  const api = axios.create({ baseURL: `${origin()}/v1`, headers: { Authorization: 'Bearer test-key' } })
  const messages: Json[] = [
    { role: 'system', content: o.system },
    { role: 'user', content: o.prompt },
  ]
  const results: string[] = []
  for (let step = 0; step < MAX_STEPS; step++) {
    const { data } = await api.post('/chat/completions', { model: o.model, messages, tools: [{ type: 'function', function: READ_FILE }] })
    const message = data.choices[0].message
    const calls: { id: string; function: { name: string; arguments: string } }[] = message.tool_calls ?? []
    if (calls.length === 0) return { answer: message.content, results }
    messages.push({ role: 'assistant', content: message.content, tool_calls: calls })
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(results, call.function.name, JSON.parse(call.function.arguments)) })
  }
  throw new Error('step limit reached')
}

/** Anthropic's stream read the way an XHR reads one: as text, with progress on the way. */
async function anthropic(o: AgentOptions): Promise<AgentRun & { progress: number }> {
  const api = axios.create({ baseURL: origin(), headers: { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' } })
  const messages: Json[] = [{ role: 'user', content: o.prompt }]
  const results: string[] = []
  let progress = 0
  for (let step = 0; step < MAX_STEPS; step++) {
    const tools = [{ name: READ_FILE.name, description: READ_FILE.description, input_schema: READ_FILE.parameters }]
    const { data } = await api.post<string>(
      '/v1/messages',
      { model: o.model, max_tokens: 1024, system: o.system, messages, tools, stream: true },
      {
        responseType: 'text',
        onDownloadProgress: () => void progress++,
      },
    )
    const content = anthropicContent(data)
    const uses = content.filter((block) => block.type === 'tool_use')
    if (uses.length === 0) return { answer: content.map((b) => (b.type === 'text' ? b.text : '')).join(''), results, progress }
    messages.push({ role: 'assistant', content })
    messages.push({ role: 'user', content: uses.map((use) => ({ type: 'tool_result', tool_use_id: use.id, content: runTool(results, String(use.name), use.input) })) })
  }
  throw new Error('step limit reached')
}

/** The message's content blocks, put together from its server-sent events. */
function anthropicContent(sse: string): Json[] {
  const blocks: Json[] = []
  const partial: string[] = []
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data: ')) continue
    const event = JSON.parse(line.slice(6))
    if (event.type === 'content_block_start') {
      blocks[event.index] = { ...event.content_block }
      partial[event.index] = ''
    } else if (event.type === 'content_block_delta') {
      const block = blocks[event.index]!
      if (event.delta.type === 'text_delta') block.text = `${block.text}${event.delta.text}`
      else partial[event.index] += event.delta.partial_json
    } else if (event.type === 'content_block_stop' && blocks[event.index]!.type === 'tool_use') {
      blocks[event.index]!.input = JSON.parse(partial[event.index] || '{}')
    }
  }
  return blocks
}

async function gemini(o: AgentOptions): Promise<AgentRun> {
  const url = `${origin()}/v1beta/models/${o.model}:generateContent`
  const contents: Json[] = [{ role: 'user', parts: [{ text: o.prompt }] }]
  const results: string[] = []
  for (let step = 0; step < MAX_STEPS; step++) {
    const { data } = await axios.post(
      url,
      {
        contents,
        systemInstruction: { parts: [{ text: o.system }] },
        tools: [{ functionDeclarations: [{ name: READ_FILE.name, description: READ_FILE.description, parameters: READ_FILE.parameters }] }],
      },
      { headers: { 'x-goog-api-key': 'test-key' } },
    )
    const parts: Json[] = data.candidates[0].content.parts
    const calls = parts.flatMap((part) => (part.functionCall ? [part.functionCall as { name: string; args: unknown }] : []))
    if (calls.length === 0) return { answer: parts.map((p) => p.text ?? '').join(''), results }
    contents.push({ role: 'model', parts })
    contents.push({ role: 'user', parts: calls.map((call) => ({ functionResponse: { name: call.name, response: { output: runTool(results, call.name, call.args) } } })) })
  }
  throw new Error('step limit reached')
}

export const agents = { openaiChat, anthropic, gemini }
export type XhrAgentName = keyof typeof agents

Object.assign(window, { agents, behaviours, startHanging, abortHanging, sendBody })
