// OpenTelemetry through the built entry (docs/node.md, "OpenTelemetry"): an app with its own tracer
// provider (agents/traced.mjs) runs the AI SDK's generateText loop under --import; the span active
// around the run ends with one event per reminder, with the attributes of docs/node.md. The entry
// takes `@opentelemetry/api` from the app's own installation.
import { resolve } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { mountMockLlm, type MockLlm } from '../support/mock-llm.ts'
import { serve, type TestServer } from '../support/server.ts'
import { runNode } from './node-agent.ts'

let server: TestServer
let mock: MockLlm
beforeAll(async () => {
  server = await serve([])
  mock = mountMockLlm(server)
})
afterAll(() => server?.close())

test("a looping AI SDK run: the app's span carries the gentle and the detailed reminder", async () => {
  const model = 'loop-node-traced'
  mock.script(model, { steps: Array.from({ length: 6 }, () => [{ name: 'read_file', args: { path: 'notes.txt' } }]), answer: 'Done.' })
  const run = await runNode({ origin: server.origin, mock, model, script: resolve(import.meta.dirname, 'agents/traced.mjs'), scriptArgs: ['aiSdk'] })
  expect(run.code).toBe(0)
  const reminder = (count: number, level: string) => ({
    name: 'repeat_tool_guard.reminder',
    attributes: { 'gen_ai.tool.name': 'read_file', 'repeat_tool_guard.consecutive_calls': count, 'repeat_tool_guard.level': level, 'repeat_tool_guard.inserted': true },
  })
  expect(JSON.parse(run.stdout)).toEqual([[reminder(3, 'gentle'), reminder(5, 'detailed')]])
})

test('the same app with the guard off: its span carries nothing of the guard', async () => {
  const model = 'loop-node-traced-off'
  mock.script(model, { steps: Array.from({ length: 6 }, () => [{ name: 'read_file', args: { path: 'notes.txt' } }]), answer: 'Done.' })
  const run = await runNode({ origin: server.origin, mock, model, env: { REPEAT_TOOL_GUARD: 'off' }, script: resolve(import.meta.dirname, 'agents/traced.mjs'), scriptArgs: ['aiSdk'] })
  expect([run.code, JSON.parse(run.stdout)]).toEqual([0, [[]]])
  expect(run.exchanges).toHaveLength(7)
})
