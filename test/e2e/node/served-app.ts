// The served app (agents/served-app.mjs) started as its user starts it, `node --import <the built
// register entry> served-app.mjs`, against the mock model, its bridge on a port of its own: what the
// tests of the panel, the popup and the inspector page attach to.
import { execFile } from 'node:child_process'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { WebSocket } from 'ws'
import { detailed } from '../../fixtures/wire/reminders.ts'
import type { BridgeToClient } from '../../../extension/src/protocol/bridge-messages.ts'
import type { PanelEvent } from '../../../extension/src/protocol/events.ts'
import { mountMockLlm, type Exchange, type MockLlm } from '../support/mock-llm.ts'
import { serve, type TestServer } from '../support/server.ts'
import { childEnv, REGISTER } from './node-agent.ts'

const APP = resolve(import.meta.dirname, 'agents/served-app.mjs')
/** Each run's agent calls read_file with the same path six times, then answers. */
export const SERVED_MODEL = 'loop-served-app'
export const ANSWER = 'Done.'
export const detailedAt = (count: number) => detailed('read_file', count, '{"path":"notes.txt"}')

export interface ServedApp {
  /** The app's address: http://127.0.0.1:<its port>. */
  readonly origin: string
  readonly bridgePort: number
  readonly pid: number
  readonly mock: MockLlm
  /** What the app wrote on stderr so far: the guard's start-up line. */
  stderr(): string
  /** The model requests of the app's runs, in the order the mock received them. */
  exchanges(): Exchange[]
}

/** A port free a moment ago, for the bridge: its default one may be taken on a shared machine. */
export function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}

/** Starts the app before the file's tests and ends it after them. */
export function useServedApp(): ServedApp {
  let server: TestServer | undefined
  let mock: MockLlm | undefined
  let child: ReturnType<typeof execFile> | undefined
  let origin = ''
  let bridgePort = 0
  let stderr = ''

  beforeAll(async () => {
    server = await serve([])
    mock = mountMockLlm(server)
    mock.script(SERVED_MODEL, { steps: Array.from({ length: 6 }, () => [{ name: 'read_file', args: { path: 'notes.txt' } }]), answer: ANSWER })
    bridgePort = await freePort()
    const started = execFile(process.execPath, ['--import', REGISTER, APP], { env: childEnv(server.origin, SERVED_MODEL, { REPEAT_TOOL_GUARD_PORT: String(bridgePort) }) })
    child = started
    started.stderr!.on('data', (text: string) => {
      stderr += text
    })
    const port = await new Promise<number>((done, fail) => {
      started.stdout!.once('data', (text: string) => done(Number(String(text).trim())))
      started.once('exit', (code) => fail(new Error(`the app exited (${code}): ${stderr}`)))
    })
    origin = `http://127.0.0.1:${port}`
  }, 30_000)

  afterAll(async () => {
    child?.kill()
    await server?.close()
  })

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the served app is not started: used before the file’s tests')
    return value
  }
  return {
    get origin() {
      return origin
    },
    get bridgePort() {
      return bridgePort
    },
    get pid() {
      return started(child?.pid)
    },
    get mock() {
      return started(mock)
    },
    stderr: () => stderr,
    exchanges: () => started(mock).exchanges.filter((exchange) => exchange.model === SERVED_MODEL),
  }
}

/** A client of the bridge, as the panel connects: every message it was sent, in order. */
export async function watchBridge(port: number): Promise<{ socket: WebSocket; messages: BridgeToClient[] }> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`)
  const messages: BridgeToClient[] = []
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as BridgeToClient))
  await new Promise((done, fail) => {
    socket.once('open', done)
    socket.once('error', fail)
  })
  return { socket, messages }
}

export const eventsOf = (messages: readonly BridgeToClient[]): PanelEvent[] => messages.flatMap((m) => (m.kind === 'events' ? m.events : []))
export const reminderCounts = (events: readonly PanelEvent[]) => events.flatMap((e) => (e.type === 'reminder' ? [e.count] : []))
/** What a panel's Config tab says the process `pid` runs, read at once (no row yet: none). */
export const configShown = (panel: Page, pid: number) =>
  panel
    .getByTestId('config-in-force-process')
    .filter({ hasText: `server · pid ${pid} ` })
    .locator('td')
    .allTextContents()

/**
 * The row of the process `pid`'s agent in a panel's agent list: selected, the timeline shows only
 * that agent, as a panel of a page served from localhost also attaches to the default port, where
 * another process of the machine may be talking.
 */
export const serverAgentRow = (panel: Page | Frame, pid: number) =>
  panel
    .locator('[data-testid=agent-row]')
    .filter({ hasText: `server · pid ${pid} · node ` })
    .first()
