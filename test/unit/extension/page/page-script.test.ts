// @vitest-environment happy-dom
// The MAIN-world entry as a page sees it: what it installs, what it posts, what it answers.
// Every test loads the script afresh into a window of its own, as Chrome does for each page.
import { Window } from 'happy-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import type { PageGuard } from '../../../../extension/src/page/page-api.ts'
import { PROTOCOL_VERSION, type PanelEvent } from '../../../../extension/src/protocol/events.ts'
import { CHANNEL_EVENT, CONTENT_SOURCE, PAGE_SOURCE, type DropCounts } from '../../../../extension/src/protocol/messages.ts'
import { checkPageToContent } from '../../../../extension/src/protocol/validate.ts'
import { FakeMessageChannel, type FakeMessagePort } from '../support/fake-message-channel.ts'

// happy-dom's Request has no accessors for the interceptor to capture (it would report a fault):
// zero-code mode is tested on its own, here it installs and has no wire agents.
vi.mock('../../../../extension/src/page/fetch/install.ts', () => ({ installFetchInterceptor: () => ({ snapshot: () => [] }) }))

let win: Window
let installedAt: readonly [number, number]
let posted: PanelEvent[]
let dropReports: DropCounts[]
let guard: PageGuard
/** The relay's end of the channel the test offered the page script, as the relay does at document_start. */
let relayEnd: FakeMessagePort

beforeEach(async () => {
  win = new Window({ url: 'https://page.test/app' })
  // happy-dom's windows have no `origin`: the one a browser gives this page.
  Object.defineProperty(win, 'origin', { value: win.location.origin })
  posted = []
  dropReports = []
  const channel = new FakeMessageChannel()
  relayEnd = channel.port1
  relayEnd.onmessage = ({ data }) => {
    const checked = checkPageToContent(data)
    if (!checked.ok) return
    if (checked.value.kind === 'events') posted.push(...checked.value.events)
    else dropReports.push(checked.value.drops)
  }
  vi.stubGlobal('window', win)
  vi.resetModules()
  const before = Date.now()
  await import('../../../../extension/src/page/index.ts')
  installedAt = [before, Date.now()]
  win.dispatchEvent(new win.MessageEvent(CHANNEL_EVENT, { ports: [channel.port2 as never] }))
  guard = (win as unknown as { __REPEAT_TOOL_GUARD__: PageGuard }).__REPEAT_TOOL_GUARD__
})

afterEach(async () => {
  vi.unstubAllGlobals()
  await win.happyDOM.close()
})

const types = () => posted.map((e) => e.type)
const totalDrops = () =>
  dropReports.reduce<Record<string, number>>((sum, drops) => {
    for (const [reason, n] of Object.entries(drops)) sum[reason] = (sum[reason] ?? 0) + (n ?? 0)
    return sum
  }, {})
const deliver = (data: object) => relayEnd.postMessage(data)
const fromContent = (message: object) => deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, ...message })
const agent = { name: 'unit' }
const repeatGrep = async (times: number) => {
  for (let i = 0; i < times; i++) await guard.postExecute({ agent, name: 'grep', arguments: { q: 1 } })
}

describe('the page script', () => {
  it('installs the guard and posts nothing while the page has no agent, until the relay asks', async () => {
    expect(guard.version).toBe(PROTOCOL_VERSION)
    expect(guard.config).toEqual(RECOMMENDED_CONFIG)
    // The answer goes out after anything the page script had posted on its own since it started.
    fromContent({ kind: 'resync' })
    await expect.poll(types).toContain('snapshot')
    expect(types()).toEqual(['page-load', 'config', 'snapshot'])
  })

  it('answers a resync before any agent with its load, as it happened, its config and an empty snapshot', async () => {
    // Asked once the clock has moved on: the load must keep its own time, not take the answer's.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(installedAt[1]))
    fromContent({ kind: 'resync' })
    await expect.poll(types).toEqual(['page-load', 'config', 'snapshot'])
    const [load, , snapshot] = posted
    expect(load).toMatchObject({ type: 'page-load', url: 'https://page.test/app' })
    expect(load!.at).toBeGreaterThanOrEqual(installedAt[0])
    expect(load!.at).toBeLessThanOrEqual(installedAt[1])
    expect(snapshot).toMatchObject({ agents: [], config: RECOMMENDED_CONFIG })
  })

  it('applies a config from the relay before any agent, reports it, and runs the first calls under it', async () => {
    const config = { ...RECOMMENDED_CONFIG, thresholds: [2, 9] }
    fromContent({ kind: 'config', config })
    await expect.poll(() => guard.config).toEqual(config)
    await expect.poll(() => posted.at(-1)).toMatchObject({ type: 'config', config })
    await guard.postExecute({ agent, name: 'grep', arguments: { q: 1 } })
    const second = await guard.postExecute({ agent, name: 'grep', arguments: { q: 1 } })
    expect(second.additionalContexts).toHaveLength(1)
    expect(guard.config).toEqual(config)
    // The page's load is reported once per page, however it became active.
    expect(types().filter((t) => t === 'page-load')).toHaveLength(1)
  })

  it('announces the page and its config with its first batch, then posts the guard events in valid batches', async () => {
    await repeatGrep(3)
    await expect.poll(() => types().filter((t) => t === 'call').length).toBe(3)
    expect(types().slice(0, 2)).toEqual(['page-load', 'config'])
    expect(posted[0]).toMatchObject({ type: 'page-load', url: 'https://page.test/app' })
    expect(posted.find((e) => e.type === 'reminder')).toMatchObject({ agentId: 'hook:1', count: 3, level: 'gentle' })
  })

  it('answers resync with a snapshot of every agent', async () => {
    await repeatGrep(3)
    fromContent({ kind: 'resync' })
    await expect
      .poll(() => posted.find((e) => e.type === 'snapshot'))
      .toMatchObject({
        agents: [{ id: 'hook:1', label: 'unit', tool: 'grep', count: 3, nextThreshold: 5 }],
        config: RECOMMENDED_CONFIG,
      })
  })

  it('applies a config from the relay once, and drops and counts malformed ones', async () => {
    await repeatGrep(1)
    const config = { ...RECOMMENDED_CONFIG, thresholds: [2, 9] }
    fromContent({ kind: 'config', config })
    fromContent({ kind: 'config', config })
    // Malformed: a config the engine refuses, an extra field, a config of the wrong shape, a future version.
    fromContent({ kind: 'config', config: { ...config, thresholds: [0] } })
    fromContent({ kind: 'config', config, extra: 1 })
    fromContent({ kind: 'config', config: { ...config, thresholds: 'many' } })
    deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION + 1, kind: 'config', config: RECOMMENDED_CONFIG })
    // The page's own tag is not the relay's: dropped as `source`.
    deliver({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'config', config: RECOMMENDED_CONFIG })
    await expect.poll(() => guard.config.thresholds).toEqual([2, 9])
    await expect.poll(totalDrops).toEqual({ shape: 3, version: 1, source: 1 })
    fromContent({ kind: 'resync' })
    // The snapshot answers the last message: every event the ones before it caused went out before it.
    await expect.poll(() => types().filter((t) => t === 'snapshot').length).toBe(1)
    expect(guard.config.thresholds).toEqual([2, 9])
    expect(posted.filter((e) => e.type === 'config').map((e) => e.type === 'config' && e.config.thresholds)).toEqual([
      [3, 5, 8],
      [2, 9],
    ])
  })

  it('applies a config that differs only in a detector, and takes a detector left out as off', async () => {
    const withCycles = { ...RECOMMENDED_CONFIG, cycles: { maxPeriod: 2, repeats: 2 } }
    fromContent({ kind: 'config', config: withCycles })
    await expect.poll(() => guard.config).toEqual(withCycles)
    fromContent({ kind: 'config', config: RECOMMENDED_CONFIG })
    await expect.poll(() => guard.config).toEqual(RECOMMENDED_CONFIG)
  })
})
