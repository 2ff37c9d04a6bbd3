// What the Node entry installs (node/install.ts), on a process-like global over a local server:
// off leaves fetch as it is; the config applies from the next request; the wire agents can be asked
// for as they stand.
import { afterEach, beforeEach, expect, test } from 'vitest'
import { DEFAULT_CONFIG, resolveConfig } from '../../../engine/index.ts'
import { installNodeGuard } from '../../../node/install.ts'
import { openaiChatBody, repeat, requests } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { type RecordingServer, recordingServer } from './support/recording-server.ts'

/** The bodies a Chat Completions agent sends while it repeats one call four times. */
const LOOP = requests({ system: 'You search.', turns: [{ prompt: 'Find x.' }, ...repeat({ name: 'grep', args: { q: 'x' }, result: 'no match' }, 4)] }, openaiChatBody).slice(1)

let server: RecordingServer
beforeEach(async () => {
  server = await recordingServer()
})
afterEach(() => server.close())

const processLike = () => ({ fetch }) as unknown as typeof globalThis
const send = (target: typeof globalThis, body: unknown) =>
  target.fetch(`${server.origin}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

test('off: fetch is left as it is', async () => {
  const target = processLike()
  const installed = await installNodeGuard({ mode: 'off', config: DEFAULT_CONFIG, source: 'default' }, target)
  expect([installed.guarding, target.fetch]).toEqual([false, fetch])
})

test('a new config guards the next request; the agents are there as they stand', async () => {
  const target = processLike()
  const installed = await installNodeGuard({ mode: 'guard', config: DEFAULT_CONFIG, source: 'default' }, target)
  expect([installed.guarding, target.fetch === fetch, installed.snapshot()]).toEqual([true, false, []])
  await send(target, LOOP[1])
  // Under the default config the fourth call's request would carry the reminder due at the third.
  installed.configure(resolveConfig({ thresholds: [4] }))
  expect(installed.config().thresholds).toEqual([4])
  await send(target, LOOP[3])
  const last = (JSON.parse(server.received[1]!.body) as { messages: unknown[] }).messages
  expect([last.length, last.at(-1)]).toEqual([(LOOP[3]!.messages as unknown[]).length + 1, { role: 'user', content: GENTLE }])
  expect(installed.snapshot()).toEqual([expect.objectContaining({ agentId: 1, format: 'openai-chat', tool: 'grep', count: 4 })])
})
