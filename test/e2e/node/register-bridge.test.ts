// The register entry serves the process's agents on its bridge (docs/node-bridge.md): a Node server
// started with `--import` of the built entry runs an AI SDK agent loop per request, and a client of
// the bridge (as the panel is one) gets the process's hello, then the calls and reminders of each
// run live; a config it sends changes the reminders of the next run, in the process.
import { expect, test } from 'vitest'
import { resolveConfig } from '../../../engine/index.ts'
import type { BridgeToClient } from '../../../extension/src/protocol/bridge-messages.ts'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { eventsOf, reminderCounts, useServedApp, watchBridge } from './served-app.ts'

const app = useServedApp()
const run = async () => (await fetch(`${app.origin}/run`)).json()

test('the process says where its bridge listens, and serves its agents there, live; a config sent there changes the next run', async () => {
  expect(app.stderr()).toContain(`inspector bridge on ws://127.0.0.1:${app.bridgePort} (pid ${app.pid})`)
  const { socket, messages } = await watchBridge(app.bridgePort)
  await expect.poll(() => messages[0]?.kind).toBe('hello')
  const hello = messages[0] as Extract<BridgeToClient, { kind: 'hello' }>
  expect([hello.v, hello.process.pid]).toEqual([PROTOCOL_VERSION, app.pid])

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
