// Reading an agent's event stream as the page reads it (docs/zero-code.md, "Agents whose loop runs
// on the server"): the engine's share of the cost, in Node (pure engine code). A 2 MB UI message
// stream, made by the real `ai` package (`streamText` on a scripted model, then
// `toUIMessageStreamResponse()`): a server loop of tool calls between long text answers, handed
// over in network-sized pieces. The baseline is what the page itself does with the same text: the
// AI SDK reads every chunk's JSON; the guard's reading is timed beside it, so its cost shows as a
// share of the page's own. The page's time to its last chunk, with and without the extension, is
// measured in the browser.
import { jsonSchema, stepCountIs, streamText, tool } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../engine/index.ts'
import { createWireGuard } from '../engine/wire/index.ts'
import { keepForResults } from './support/results.ts'
import type { SpreadRow } from './support/spread-row.ts'
import { timeRounds } from './support/wire-rounds.ts'

const rows: SpreadRow[] = []
keepForResults('agent event streams: reading a server loop as the page reads it (Node)', () => rows)

afterAll(() => {
  console.log('\nagent event streams (ratio: median over rounds; spread: 25th–75th percentile of the rounds)')
  console.table(rows)
})

const USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } }
const STEPS = 40
const DELTAS_PER_STEP = 50
const DELTA = 'The build is still running; checking again. '.repeat(22)

/** About 2 MB: every step answers in text, then calls the same tool. */
async function serverLoop(): Promise<string> {
  let step = 0
  const model = new MockLanguageModelV3({
    doStream: async () => {
      step += 1
      const parts: object[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: `t${step}` },
      ]
      for (let i = 0; i < DELTAS_PER_STEP; i++) parts.push({ type: 'text-delta', id: `t${step}`, delta: DELTA })
      parts.push({ type: 'text-end', id: `t${step}` })
      if (step < STEPS) parts.push({ type: 'tool-call', toolCallId: `call_${step}`, toolName: 'build_status', input: '{"id":7}' })
      parts.push({ type: 'finish', finishReason: { unified: step < STEPS ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE })
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part)
            controller.close()
          },
        }) as never,
      }
    },
  })
  const result = streamText({
    model,
    prompt: 'wait for the build',
    tools: { build_status: tool({ inputSchema: jsonSchema<{ id: number }>({ type: 'object' }), execute: async () => 'running' }) },
    stopWhen: stepCountIs(STEPS),
  })
  return result.toUIMessageStreamResponse().text()
}

it('reading a 2 MB AI SDK UI message stream as the page reads it', async () => {
  const text = await serverLoop()
  const pieces: string[] = []
  // Pieces as a network hands them over.
  for (let at = 0; at < text.length; at += 16 * 1024) pieces.push(text.slice(at, at + 16 * 1024))
  const request = JSON.stringify({ id: 'chat_1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'wait for the build' }] }], trigger: 'submit-message' })
  let calls = 0
  // The page's own work on the text: each chunk's JSON read, as the AI SDK reads it.
  const page = () => () => {
    for (const event of text.split('\n\n')) if (event.startsWith('data: {')) JSON.parse(event.slice(6))
  }
  const guarded = () => () => {
    const reading = createWireGuard().openStream(request, 'ui-message-stream', RECOMMENDED_CONFIG)!
    let events = 0
    for (const piece of pieces) events += reading.push(piece).length
    events += reading.end(false).length
    calls = events
  }
  const label = `${(text.length / 1024 / 1024).toFixed(1)} MB, ${STEPS - 1} calls`
  rows.push(timeRounds(`guard's reading of a UI message stream: ${label} (baseline: the page's own JSON reading of its chunks)`, [page, guarded]))
  expect(text.length).toBeGreaterThan(1.5 * 1024 * 1024)
  expect(calls).toBeGreaterThan(STEPS)
})
