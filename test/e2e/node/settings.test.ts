// The environment's settings of a registered process (docs/node.md, "Settings"), on a real agent
// run as a child process: a bad one stops the process before the app's first line, with the
// reason; observe mode analyses and sends every request as the app made it; a config changes the
// reminders; the process exits by itself in every mode.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { occurrences } from '../../fixtures/wire/placements.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { mountMockLlm, type MockLlm } from '../support/mock-llm.ts'
import { serve, type TestServer } from '../support/server.ts'
import { runAgent } from './node-agent.ts'

const READ = { name: 'read_file', args: { path: 'notes.txt' } }

let server: TestServer
let mock: MockLlm
let folder: string
beforeAll(async () => {
  server = await serve([])
  mock = mountMockLlm(server)
  folder = await mkdtemp(join(tmpdir(), 'rtg-node-settings-'))
})
afterAll(async () => {
  await server?.close()
  if (folder) await rm(folder, { recursive: true, force: true })
})

/** A fresh looping model for one run, so runs never share a conversation. */
function loopingModel(): string {
  const model = `loop-settings-${Math.random().toString(36).slice(2)}`
  mock.script(model, { steps: Array.from({ length: 6 }, () => [READ]), answer: 'Done.' })
  return model
}

const run = (env: Record<string, string>) => runAgent('openaiChat', { origin: server.origin, mock, model: loopingModel(), env })

describe('a bad setting stops the process before the app starts, with the reason on one line', () => {
  test.each([
    ['a mode it does not know', { REPEAT_TOOL_GUARD: 'loud' }, 'REPEAT_TOOL_GUARD must be one of guard, observe, off, got "loud"'],
    ['a config that is not JSON', { REPEAT_TOOL_GUARD_CONFIG: '{thresholds: [3]}' }, 'REPEAT_TOOL_GUARD_CONFIG (inline JSON) is not JSON: '],
    ['an invalid config', { REPEAT_TOOL_GUARD_CONFIG: '{"thresholds":[1]}' }, 'REPEAT_TOOL_GUARD_CONFIG (inline JSON) is not a valid config: thresholds[0] must be an integer >= 2, got 1'],
    ['a config file that cannot be read', { REPEAT_TOOL_GUARD_CONFIG: '/no/such/guard.json' }, 'REPEAT_TOOL_GUARD_CONFIG: cannot read /no/such/guard.json: ENOENT'],
  ])('%s', async (_, env, reason) => {
    const stopped = await run(env)
    expect(stopped.code).toBe(2)
    expect(stopped.stderr.split('\n')).toEqual([expect.stringMatching(/^repeat-tool-guard: .+; stopped before the app started$/), ''])
    expect(stopped.stderr).toContain(reason)
    // The app never ran: it printed nothing and sent nothing.
    expect([stopped.stdout, stopped.exchanges]).toEqual(['', []])
  })
})

test('observe mode sends every request as the app made it', async () => {
  const observed = await run({ REPEAT_TOOL_GUARD: 'observe' })
  expect(observed.code).toBe(0)
  expect(observed.stderr).toMatch(/^repeat-tool-guard: observe mode, thresholds 3\/5\/8 \(default config\); inspector bridge off \(pid \d+\)\n$/)
  expect(observed.exchanges).toHaveLength(7)
  expect(observed.exchanges.map((e) => occurrences(e.body, GENTLE))).toEqual([0, 0, 0, 0, 0, 0, 0])
  expect(observed.exchanges.map((e) => e.status)).toEqual([200, 200, 200, 200, 200, 200, 200])
})

test('a config file sets the thresholds: the gentle reminder follows the second result', async () => {
  const path = join(folder, 'guard.json')
  await writeFile(path, JSON.stringify({ thresholds: [2, 4] }))
  const configured = await run({ REPEAT_TOOL_GUARD_CONFIG: path })
  expect(configured.code).toBe(0)
  expect(configured.stderr).toContain(`guard mode, thresholds 2/4 (config: ${path})`)
  expect(configured.exchanges.map((e) => occurrences(e.body, GENTLE))).toEqual([0, 0, 1, 1, 1, 1, 1])
})
