// The opt-in detectors through the built extension: with `cycles` in the stored config, a
// ping-pong conversation (two reads taking turns) sent over three requests gets the cycle
// reminder in what reaches the server, after the sixth result, and keeps it there once.
import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { CONFIG_STORAGE_KEY } from '../../../extension/src/protocol/messages.ts'
import { openaiChatBody, type Script, type Turn } from '../../fixtures/wire/conversations.ts'
import { useStage } from '../support/stage.ts'
import { routeBlankPage } from './blank-page.ts'

const MODEL = 'ping-pong-model'
const CYCLE_HEAD = 'Repeated cycle of tool calls detected:\n- cycle: read_file -> read_file\n- repetitions: 3\n'

const stage = useStage({ routes: routeBlankPage })

beforeAll(async () => {
  stage.mock.script(MODEL, { steps: [], answer: 'ok' })
  const worker = await stage.browser.worker()
  await worker.evaluate(([key, config]) => chrome.storage.local.set({ [key]: config }), [CONFIG_STORAGE_KEY, { ...RECOMMENDED_CONFIG, cycles: { maxPeriod: 2, repeats: 3 } }] as const)
})

/** A conversation of `steps` reads alternating between two files. */
function pingPong(system: string, steps: number): string {
  const read = (path: string): Turn => ({ calls: [{ name: 'read_file', args: { path } }] })
  const script: Script = { system, turns: [{ prompt: 'Compare the two files.' }, ...Array.from({ length: steps }, (_, n) => read(n % 2 === 0 ? 'a.ts' : 'b.ts'))] }
  return JSON.stringify({ ...openaiChatBody(script), model: MODEL })
}

/** Sends `body` from the page as an SDK would; resolves to the status and what reached the server. */
async function send(page: Page, body: string): Promise<{ status: number; received: { messages: { role: string; content: unknown }[] } }> {
  const status = await page.evaluate(
    (body) => fetch('/v1/chat/completions', { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then(async (r) => (await r.text(), r.status)),
    body,
  )
  return { status, received: JSON.parse(stage.mock.exchanges.at(-1)!.body) }
}

test('a ping-pong conversation across three requests gets the cycle reminder once, after the sixth result, and keeps it there', async () => {
  const page = await stage.browser.context.newPage()
  // A local origin: guarded by default.
  await page.goto(`${stage.server.origin}/blank`)
  let attempt = 0
  let system = ''
  // Until the stored config has reached the page: each attempt is a new conversation, so one
  // that started under the defaults does not count.
  await expect
    .poll(
      async () => {
        system = `You are a ping-pong agent (${++attempt}).`
        for (const steps of [2, 4]) expect((await send(page, pingPong(system, steps))).status).toBe(200)
        const { status, received } = await send(page, pingPong(system, 6))
        expect(status).toBe(200)
        // system, prompt, then an assistant message and its tool message per step.
        return received.messages[14]?.content
      },
      { interval: 200 },
    )
    .toEqual(expect.stringMatching(/^Repeated cycle of tool calls detected:\n/))

  const third = await send(page, pingPong(system, 6))
  expect(third.received.messages[14]).toEqual({ role: 'user', content: expect.stringContaining(CYCLE_HEAD) })
  const fourth = await send(page, pingPong(system, 7))
  expect(fourth.status).toBe(200)
  expect(fourth.received.messages[14]).toEqual(third.received.messages[14])
  expect(fourth.received.messages.filter((m) => typeof m.content === 'string' && m.content.startsWith('Repeated cycle'))).toHaveLength(1)
  expect(fourth.received.messages).toHaveLength(2 + 7 * 2 + 1)
  await page.close()
})
