// A server whose tool loop runs with the real `ai` package and streams it to the page as an AI SDK
// UI message stream (`streamText(...).toUIMessageStreamResponse()`), on a scripted model that
// answers as a real one does: a new tool call id each step, usage, finish reasons. Each chat the
// page opens is scripted by its first user text: `loop:<n>` calls `search` with the same
// arguments n times, then answers. With `execute`, the loop runs on the server (one response); without,
// each call ends the response and the page sends the result back (client-side tools).
import { convertToModelMessages, stepCountIs, streamText, tool, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import type { ServerResponse } from 'node:http'
import { z } from 'zod'
import type { TestServer } from './server.ts'

export const SEARCH_INPUT = { q: 'threshold' }
export const SEARCH_RESULT = 'no match in src/'
export const FINAL_ANSWER = 'The loader ignores "threshold".'

/** What the scripted model received: each call's prompt, with the chat's first user text. */
export interface ModelCalls {
  readonly prompts: { readonly chat: string; readonly prompt: LanguageModelV3Prompt }[]
}

const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 8, text: 8, reasoning: 0 } }

/** How many tool results the prompt holds: the steps the loop made so far. */
function resultsIn(prompt: readonly { role: string; content: unknown }[]): number {
  let results = 0
  for (const message of prompt) if (message.role === 'tool' && Array.isArray(message.content)) results += message.content.length
  return results
}

function scriptedModel(chat: string, loops: number, calls: ModelCalls): MockLanguageModelV3 {
  let step = 0
  return new MockLanguageModelV3({
    doStream: async ({ prompt }) => {
      calls.prompts.push({ chat, prompt })
      const done = resultsIn(prompt as readonly { role: string; content: unknown }[])
      step += 1
      const id = `resp_${Math.random().toString(36).slice(2)}_${step}`
      const parts: LanguageModelV3StreamPart[] =
        done < loops
          ? [
              { type: 'stream-start', warnings: [] },
              { type: 'response-metadata', id, modelId: 'scripted', timestamp: new Date() },
              { type: 'tool-call', toolCallId: `call_${Math.random().toString(36).slice(2)}`, toolName: 'search', input: JSON.stringify(SEARCH_INPUT) },
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
            ]
          : [
              { type: 'stream-start', warnings: [] },
              { type: 'response-metadata', id, modelId: 'scripted', timestamp: new Date() },
              { type: 'text-start', id: 'text-1' },
              { type: 'text-delta', id: 'text-1', delta: FINAL_ANSWER },
              { type: 'text-end', id: 'text-1' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
            ]
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part)
            controller.close()
          },
        }),
      }
    },
  })
}

/** Sends a web Response to a node response, and notes whether the page let it go before its end. */
async function pipe(response: Response, res: ServerResponse, closed: (finished: boolean) => void): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers))
  res.flushHeaders()
  let finished = false
  res.on('close', () => closed(finished))
  const reader = response.body!.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (res.destroyed) return void (await reader.cancel())
      res.write(value)
    }
    finished = true
    res.end()
  } catch {
    res.destroy()
  }
}

/** The texts of the user messages of a prompt, in order. */
export function userTexts(prompt: LanguageModelV3Prompt): string[] {
  return prompt.flatMap((message) => (message.role === 'user' ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : []))
}

export interface UiStreamServer {
  readonly calls: ModelCalls
  /** How each response ended, in order: true when the server wrote it to its end. */
  readonly closes: boolean[]
}

/**
 * Mounts `POST /chat` on `server`: the body is useChat's (`{id, messages, trigger}`); `?tools=client`
 * leaves the tool to the page; `?slow=<ms>` waits that long before each step's stream.
 */
export function mountUiStreamServer(server: TestServer): UiStreamServer {
  const state: UiStreamServer = { calls: { prompts: [] }, closes: [] }
  server.route(async (req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method !== 'POST' || url.pathname !== '/chat') return false
    const { messages } = JSON.parse(body.toString('utf8')) as { messages: UIMessage[] }
    const first = messages.find((m) => m.role === 'user')?.parts.find((p) => p.type === 'text')
    const chat = first && 'text' in first ? first.text : ''
    const loops = Number(/loop:(\d+)/.exec(chat)?.[1] ?? 0)
    const slow = Number(url.searchParams.get('slow') ?? 0)
    const client = url.searchParams.get('tools') === 'client'
    const search = client
      ? tool({ description: 'Searches the code', inputSchema: z.object({ q: z.string() }) })
      : tool({
          description: 'Searches the code',
          inputSchema: z.object({ q: z.string() }),
          execute: async () => {
            if (slow > 0) await new Promise((ok) => setTimeout(ok, slow))
            return SEARCH_RESULT
          },
        })
    const result = streamText({
      model: scriptedModel(chat, loops, state.calls),
      system: 'You are a careful coding agent.',
      messages: await convertToModelMessages(messages),
      tools: { search },
      stopWhen: stepCountIs(loops + 2),
    })
    await pipe(result.toUIMessageStreamResponse(), res, (finished) => state.closes.push(finished))
    return true
  })
  return state
}
