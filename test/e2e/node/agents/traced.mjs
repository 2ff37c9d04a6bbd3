// An app that already uses OpenTelemetry (docs/node.md, "OpenTelemetry"): it registers a tracer
// provider with sdk-trace-base's in-memory exporter and an AsyncLocalStorage context manager (as
// `@opentelemetry/context-async-hooks` does), runs one agent (agents.mjs) inside a span of its own,
// and prints the events that span ended with. `node traced.mjs <agent>`, with the env of agents.mjs.
import { AsyncLocalStorage } from 'node:async_hooks'
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { runAgent } from './agents.mjs'

const storage = new AsyncLocalStorage()
context.setGlobalContextManager({
  active: () => storage.getStore() ?? ROOT_CONTEXT,
  with: (active, fn, self, ...args) => storage.run(active, () => fn.call(self, ...args)),
  bind: (_, target) => target,
  enable() {
    return this
  },
  disable() {
    return this
  },
})
const exporter = new InMemorySpanExporter()
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))

await trace.getTracer('app').startActiveSpan('agent run', async (span) => {
  await runAgent(process.argv[2])
  span.end()
})
const spans = exporter.getFinishedSpans().filter((span) => span.name === 'agent run')
process.stdout.write(JSON.stringify(spans.map((span) => span.events.map(({ name, attributes }) => ({ name, attributes })))))
