// The register entry serves the process's agents on its bridge (docs/node-bridge.md): a Node server
// started with `--import` of the built entry runs an AI SDK agent loop per request, and a client of
// the bridge (as the panel is one) gets the process's hello, then the calls and reminders of each
// run live; a config it sends changes the reminders of the next run, in the process.
import { execFile } from 'node:child_process'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { resolveConfig } from '../../../engine/index.ts'
import type { BridgeToClient } from '../../../extension/src/protocol/bridge-messages.ts'
import type { PanelEvent } from '../../../extension/src/protocol/events.ts'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { mountMockLlm, type MockLlm } from '../support/mock-llm.ts'
import { serve, type TestServer } from '../support/server.ts'
import { childEnv, REGISTER } from './node-agent.ts'

const APP = resolve(import.meta.dirname, 'agents/served-app.mjs')
const MODEL = 'loop-served-app'

/** A port free a moment ago, for the bridge: its default one may be taken on a shared machine. */
function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}

let server: TestServer
let mock: MockLlm
let child: ReturnType<typeof execFile>
let appPort: number
let bridgePort: number
let stderr = ''

beforeAll(async () => {
  server = await serve([])
  mock = mountMockLlm(server)
  mock.script(MODEL, { steps: Array.from({ length: 6 }, () => [{ name: 'read_file', args: { path: 'notes.txt' } }]), answer: 'Done.' })
  bridgePort = await freePort()
  child = execFile(process.execPath, ['--import', REGISTER, APP], { env: childEnv(server.origin, MODEL, { REPEAT_TOOL_GUARD_PORT: String(bridgePort) }) })
  child.stderr!.on('data', (text: string) => {
    stderr += text
  })
  appPort = await new Promise<number>((done, fail) => {
    child.stdout!.once('data', (text: string) => done(Number(String(text).trim())))
    child.once('exit', (code) => fail(new Error(`the app exited (${code}): ${stderr}`)))
  })
}, 30_000)

afterAll(async () => {
  child?.kill()
  await server?.close()
})

/** A client of the bridge, as the panel connects: every message it was sent, in order. */
async function attach(): Promise<{ socket: WebSocket; messages: BridgeToClient[] }> {
  const socket = new WebSocket(`ws://127.0.0.1:${bridgePort}`)
  const messages: BridgeToClient[] = []
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as BridgeToClient))
  await new Promise((done, fail) => {
    socket.once('open', done)
    socket.once('error', fail)
  })
  return { socket, messages }
}

const eventsOf = (messages: readonly BridgeToClient[]): PanelEvent[] => messages.flatMap((m) => (m.kind === 'events' ? m.events : []))
const reminderCounts = (events: readonly PanelEvent[]) => events.flatMap((e) => (e.type === 'reminder' ? [e.count] : []))
const run = async () => (await fetch(`http://127.0.0.1:${appPort}/run`)).json()

test('the process says where its bridge listens, and serves its agents there, live; a config sent there changes the next run', async () => {
  expect(stderr).toContain(`inspector bridge on ws://127.0.0.1:${bridgePort} (pid ${child.pid})`)
  const { socket, messages } = await attach()
  await expect.poll(() => messages[0]?.kind).toBe('hello')
  const hello = messages[0] as Extract<BridgeToClient, { kind: 'hello' }>
  expect([hello.v, hello.process.pid]).toEqual([PROTOCOL_VERSION, child.pid])

  await run()
  // Live: the run's calls and its two reminders reach the client without it asking again.
  await expect.poll(() => reminderCounts(eventsOf(messages)), { timeout: 15_000 }).toEqual([3, 5])
  expect(eventsOf(messages).filter((e) => e.type === 'call')).toHaveLength(6)

  const before = messages.length
  socket.send(JSON.stringify({ v: PROTOCOL_VERSION, kind: 'configure', config: resolveConfig({ thresholds: [2, 4] }) }))
  await expect.poll(() => eventsOf(messages.slice(before)).some((e) => e.type === 'config')).toBe(true)
  await run()
  await expect.poll(() => reminderCounts(eventsOf(messages.slice(before))), { timeout: 15_000 }).toEqual([2, 4])
  socket.close()
})
