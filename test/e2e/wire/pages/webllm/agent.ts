// An in-page agent on WebLLM's Web Worker engine, written the way WebLLM's docs show: the real
// `CreateWebWorkerMLCEngine` client, `engine.chat.completions.create` with a tool, looping on the
// model's tool calls until it answers. It knows nothing of the guard. The page also keeps workers of
// its own busy with messages that are not WebLLM's, and collects what every worker received.
import { CreateWebWorkerMLCEngine, type ChatCompletionMessageParam, type ChatCompletionRequestBase, type ChatCompletionTool } from '@mlc-ai/web-llm'
import { MODEL, RECEIVED_CHANNEL } from './script.ts'

export interface WebllmRun {
  readonly answer: string
  /** Every tool result the agent handed back, in order. */
  readonly results: readonly string[]
  /** Every request the agent made, as it made it (copied at the time). */
  readonly requests: readonly ChatCompletionRequestBase[]
}

/** What one worker received, as the page heard of it (buffers as their bytes). */
export interface Received {
  readonly worker: string
  readonly data: unknown
}

const received: Received[] = []
new BroadcastChannel(RECEIVED_CHANNEL).onmessage = (event: MessageEvent<Received>) => received.push(event.data)

// The bundled worker, served next to the page (a literal `new URL(..., import.meta.url)` Vite would inline).
const WORKER_URL = new URL('worker.js', document.baseURI)
const MAX_STEPS = 12
const FILES: Readonly<Record<string, string>> = { 'notes.txt': 'TODO: the config loader ignores "threshold"\nsee loader.ts:42' }

const TOOLS: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a text file of the project',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
]

function runTool(results: string[], name: string, args: string): string {
  const path = (JSON.parse(args) as { path?: string }).path
  const result = name === 'read_file' && path !== undefined ? (FILES[path] ?? `no such file: ${path}`) : `unknown tool ${name}`
  results.push(result)
  return result
}

async function run({ prompt, stream }: { prompt: string; stream: boolean }): Promise<WebllmRun> {
  const engine = await CreateWebWorkerMLCEngine(new Worker(WORKER_URL, { type: 'module', name: 'webllm' }), MODEL)
  // Hermes models take no system message of the page's: WebLLM writes their tool prompt itself.
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }]
  const results: string[] = []
  const requests: ChatCompletionRequestBase[] = []
  for (let step = 0; step < MAX_STEPS; step++) {
    const request = { messages, tools: TOOLS, temperature: 0 }
    requests.push(structuredClone({ ...request, stream }))
    let text = ''
    const calls: { id: string; name: string; arguments: string }[] = []
    if (stream) {
      for await (const chunk of await engine.chat.completions.create({ ...request, stream: true })) {
        const delta = chunk.choices[0]?.delta
        text += delta?.content ?? ''
        // Streamed calls carry no id: the page numbers them as WebLLM numbers unstreamed ones.
        for (const call of delta?.tool_calls ?? []) calls.push({ id: String(call.index), name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' })
      }
    } else {
      const reply = await engine.chat.completions.create({ ...request, stream: false })
      const message = reply.choices[0]!.message
      text = message.content ?? ''
      for (const call of message.tool_calls ?? []) calls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments })
    }
    if (calls.length === 0) return { answer: text, results, requests }
    // WebLLM wants an assistant message's content as a string, even beside tool calls.
    messages.push({ role: 'assistant', content: text, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) })
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(results, call.name, call.arguments) })
  }
  throw new Error('step limit reached')
}

/** Loads a model through the client and makes no request: only `reload` reaches the worker. */
async function loadOnly(): Promise<void> {
  await CreateWebWorkerMLCEngine(new Worker(WORKER_URL, { type: 'module', name: 'webllm' }), MODEL)
}

/**
 * A worker of the page's that is no WebLLM engine, sent what pages send workers: text, objects
 * (one shaped like a chat request, under another kind), buffers in transfer lists and in options.
 * Says whether the buffers were transferred (detached here), as without the extension.
 */
function otherTraffic(): { detached: boolean[] } {
  const worker = new Worker(WORKER_URL, { type: 'module', name: 'other' })
  const listed = new Uint8Array([1, 2, 3]).buffer
  const optioned = new Uint8Array([4, 5]).buffer
  worker.postMessage('hello')
  worker.postMessage({ kind: 'render', uuid: 'r-1', content: { request: { messages: [{ role: 'tool', tool_call_id: '0', content: 'x' }] } } })
  worker.postMessage({ bytes: listed }, [listed])
  worker.postMessage({ bytes: optioned }, { transfer: [optioned] })
  return { detached: [listed.byteLength === 0, optioned.byteLength === 0] }
}

/** What `worker` received so far, buffers as arrays of their bytes (for the test to compare). */
function receivedBy(worker: string): unknown[] {
  const plain = (value: unknown): unknown =>
    value instanceof ArrayBuffer
      ? { bytes: [...new Uint8Array(value)] }
      : Array.isArray(value)
        ? value.map(plain)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === undefined ? '(undefined)' : plain(v)]))
          : value
  return received.filter((r) => r.worker === worker).map((r) => plain(r.data))
}

Object.assign(window, { webllm: { run, loadOnly, otherTraffic, receivedBy } })

export type WebllmPage = { readonly run: typeof run; readonly loadOnly: typeof loadOnly; readonly otherTraffic: typeof otherTraffic; readonly receivedBy: typeof receivedBy }
