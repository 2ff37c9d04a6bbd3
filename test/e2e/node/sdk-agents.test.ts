// Node agents on the real SDKs, guarded with no code (docs/node.md): each runs as a child process
// with `--import` of the built register entry against the mock model, which loops on one call and
// rejects any request that breaks its format's rules. The gentle reminder must follow the third
// result and the detailed one the fifth, and every request must be byte for byte the one the same
// run sends with the guard off, but for the reminders inserted.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { mountMockLlm, type MockLlm } from '../support/mock-llm.ts'
import { serve, type TestServer } from '../support/server.ts'
import { type NodeAgent, type NodeRun, runAgent } from './node-agent.ts'

const READ = { name: 'read_file', args: { path: 'notes.txt' } }
const DETAILED = detailed('read_file', 5, '{"path":"notes.txt"}')
const ANSWER = 'The loader ignores "threshold".'

/** Each format's reminder, as the guard writes it into a body (docs/zero-code.md, "Formats"). */
const ITEM: Readonly<Record<string, (text: string) => unknown>> = {
  'openai-chat': (text) => ({ role: 'user', content: text }),
  'openai-responses': (text) => ({ role: 'user', content: [{ type: 'input_text', text }] }),
  anthropic: (text) => ({ type: 'text', text }),
}

/** The ids the mock numbers across runs: the same response in two runs has the same id but for its number. */
const runIndependent = (body: string) => body.replace(/"(resp_\w+)_\d+"/g, '"$1_N"')

let server: TestServer
let mock: MockLlm
beforeAll(async () => {
  server = await serve([])
  mock = mountMockLlm(server)
})
afterAll(() => server?.close())

const AGENTS: readonly NodeAgent[] = ['openaiChat', 'openaiResponses', 'openaiResponsesById', 'anthropic', 'aiSdk', 'openaiAgents']

describe.each(AGENTS)('%s, looping six times on one call', (agent) => {
  let guarded: NodeRun
  let off: NodeRun
  beforeAll(async () => {
    const model = `loop-node-${agent}`
    const greeter = `greeter-${agent}`
    mock.script(model, { steps: Array.from({ length: 6 }, () => [READ]), answer: ANSWER })
    mock.script(greeter, { steps: [], answer: 'Hello!' })
    const run = (mode: string) => runAgent(agent, { origin: server.origin, mock, model, env: { REPEAT_TOOL_GUARD: mode, GREETER: greeter } })
    guarded = await run('guard')
    off = await run('off')
  })

  test('the agent finishes and the process exits by itself; the model accepted every request', () => {
    for (const run of [guarded, off]) {
      expect([run.code, run.stderr.replace(/pid \d+/, 'pid N')]).toEqual([0, expect.stringMatching(/^repeat-tool-guard: [^\n]+; inspector bridge off \(pid N\)\n$/)])
      expect(JSON.parse(run.stdout)).toEqual({ answer: ANSWER, results: Array.from({ length: 6 }, () => 'TODO: the config loader ignores "threshold"\nsee loader.ts:42') })
      expect(run.exchanges.map((e) => [e.status, e.error])).toEqual(run.exchanges.map(() => [200, undefined]))
    }
  })

  test('the gentle reminder follows the third result and the detailed one the fifth, each sent once', () => {
    const loop = guarded.exchanges.filter((e) => !e.model.startsWith('greeter-'))
    expect(loop).toHaveLength(7)
    // Continued by id, the provider keeps what earlier requests sent: each reminder goes once, in the request where it became due.
    const byId = loop.some((e) => e.body.includes('"previous_response_id"'))
    loop.forEach(({ body }, n) => {
      expect(occurrences(body, GENTLE)).toBe(byId ? Number(n === 3) : Number(n >= 3))
      expect(occurrences(body, DETAILED)).toBe(byId ? Number(n === 5) : Number(n >= 5))
    })
  })

  test('every request is the one the guard-off run sends, byte for byte, but for the reminders inserted', () => {
    expect(guarded.exchanges).toHaveLength(off.exchanges.length)
    guarded.exchanges.forEach((exchange, n) => {
      const item = ITEM[exchange.format]!
      let body = exchange.body
      for (const text of [GENTLE, DETAILED]) body = body.split(`,${JSON.stringify(item(text))}`).join('')
      expect(runIndependent(body)).toBe(runIndependent(off.exchanges[n]!.body))
    })
    expect(guarded.exchanges.some((e, n) => runIndependent(e.body) !== runIndependent(off.exchanges[n]!.body))).toBe(true)
  })

  test('the headers the model received are the ones the guard-off run sent', () => {
    const varying = new Set(['content-length', 'x-stainless-retry-count', 'x-stainless-timeout'])
    const kept = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !varying.has(name)))
    guarded.exchanges.forEach((exchange, n) => expect(kept(exchange.headers)).toEqual(kept(off.exchanges[n]!.headers)))
  })
})
