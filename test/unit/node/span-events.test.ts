// OpenTelemetry span events (docs/node.md, "OpenTelemetry"): where the app has registered a tracer
// provider, the span active when a request went out carries an event for every reminder, with the
// attributes of docs/node.md; with none, nothing happens; the guard never registers one itself.
import { context, trace } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { DEFAULT_CONFIG, resolveConfig } from '../../../engine/index.ts'
import { installNodeGuard } from '../../../node/install.ts'
import { loadTraceApi, SPAN_EVENT } from '../../../node/span-events.ts'
import { openaiChatBody, repeat, requests } from '../../fixtures/wire/conversations.ts'
import { AsyncLocalContextManager } from './support/async-context.ts'
import { type RecordingServer, recordingServer } from './support/recording-server.ts'

/** The bodies a Chat Completions agent sends while it repeats one call six times. */
const LOOP = requests({ system: 'You search.', turns: [{ prompt: 'Find x.' }, ...repeat({ name: 'grep', args: { q: 'x' }, result: 'no match' }, 6)] }, openaiChatBody).slice(1)

let server: RecordingServer
beforeEach(async () => {
  server = await recordingServer()
})
afterEach(async () => {
  trace.disable()
  context.disable()
  await server.close()
})

/** A process's global object, as far as the guard touches it. */
const processLike = () => ({ fetch }) as unknown as typeof globalThis

async function runLoop(target: typeof globalThis): Promise<void> {
  for (const body of LOOP) await target.fetch(`${server.origin}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

test('the active span carries each reminder, with its tool, its count and its level', async () => {
  const exporter = new InMemorySpanExporter()
  context.setGlobalContextManager(new AsyncLocalContextManager())
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))
  const target = processLike()
  await installNodeGuard({ mode: 'guard', config: DEFAULT_CONFIG, source: 'default' }, target)
  await trace.getTracer('app').startActiveSpan('agent run', async (span) => {
    await runLoop(target)
    span.end()
  })
  const [run] = exporter.getFinishedSpans()
  expect(run!.events.map(({ name, attributes }) => [name, attributes])).toEqual([
    [SPAN_EVENT, { 'gen_ai.tool.name': 'grep', 'repeat_tool_guard.consecutive_calls': 3, 'repeat_tool_guard.level': 'gentle', 'repeat_tool_guard.inserted': true }],
    [SPAN_EVENT, { 'gen_ai.tool.name': 'grep', 'repeat_tool_guard.consecutive_calls': 5, 'repeat_tool_guard.level': 'detailed', 'repeat_tool_guard.inserted': true }],
  ])
})

test('a would-be block and an observed reminder show as such', async () => {
  const exporter = new InMemorySpanExporter()
  context.setGlobalContextManager(new AsyncLocalContextManager())
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))
  const target = processLike()
  await installNodeGuard({ mode: 'observe', config: resolveConfig({ thresholds: [3], stopAfter: 5 }), source: 'inline JSON' }, target)
  await trace.getTracer('app').startActiveSpan('agent run', async (span) => {
    await runLoop(target)
    span.end()
  })
  const events = exporter
    .getFinishedSpans()[0]!
    .events.map(({ attributes }) => [attributes!['repeat_tool_guard.level'], attributes!['repeat_tool_guard.consecutive_calls'], attributes!['repeat_tool_guard.inserted']])
  expect(events).toEqual([
    ['gentle', 3, false],
    ['block', 5, false],
  ])
  expect(server.received.every((r) => !r.body.includes('You are repeating'))).toBe(true)
})

test('with no tracer provider registered, requests are guarded and no provider is started', async () => {
  const target = processLike()
  await installNodeGuard({ mode: 'guard', config: DEFAULT_CONFIG, source: 'default' }, target)
  await runLoop(target)
  expect(server.received.filter((r) => r.body.includes('You are repeating')).length).toBe(4)
  const tracer = trace.getTracer('probe')
  const span = tracer.startSpan('probe')
  expect(span.isRecording()).toBe(false)
  span.end()
})

test('an app without @opentelemetry/api: no span events, no failure', async () => {
  expect(
    await loadTraceApi(() => {
      throw Object.assign(new Error("Cannot find package '@opentelemetry/api'"), { code: 'ERR_MODULE_NOT_FOUND' })
    }),
  ).toBeUndefined()
  expect(await loadTraceApi(() => Promise.resolve({}))).toBeUndefined()
  expect(await loadTraceApi()).toEqual(expect.objectContaining({ trace }))
})
