// @vitest-environment happy-dom
// The MAIN-world entry as a page sees it: what it installs, what it posts, what it answers.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import type { PageGuard } from '../../../extension/src/page/page-api.ts'
import { PROTOCOL_VERSION, type InspectorEvent } from '../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE, PAGE_SOURCE } from '../../../extension/src/protocol/messages.ts'
import { checkPageToContent } from '../../../extension/src/protocol/validate.ts'

// happy-dom's Request has no accessors for the interceptor to capture (it would report a fault):
// zero-code mode is tested on its own, here it installs and has no wire agents.
vi.mock('../../../extension/src/page/fetch/install.ts', () => ({ installFetchInterceptor: () => ({ snapshot: () => [] }) }))

const posted: InspectorEvent[] = []
let guard: PageGuard
let installedAt: readonly [number, number]

beforeAll(async () => {
  window.addEventListener('message', (event) => {
    const checked = checkPageToContent(event.data)
    if (checked.ok && checked.value.kind === 'events') posted.push(...checked.value.events)
  })
  const before = Date.now()
  await import('../../../extension/src/page/index.ts')
  installedAt = [before, Date.now()]
  guard = (window as unknown as { __REPEAT_TOOL_GUARD__: PageGuard }).__REPEAT_TOOL_GUARD__
})

const types = () => posted.map((e) => e.type)
const settle = () => new Promise((done) => setTimeout(done, 50))
// Dispatched rather than posted: the test environment's postMessage names another object as source.
const deliver = (data: object) => window.dispatchEvent(new MessageEvent('message', { data, source: window }))
const fromContent = (message: object) => deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, ...message })

describe('the page script', () => {
  it('installs the guard and posts nothing while the page has no agent', async () => {
    expect(guard.version).toBe(PROTOCOL_VERSION)
    expect(guard.config).toEqual(RECOMMENDED_CONFIG)
    await settle()
    expect(posted).toEqual([])
  })

  it('answers a resync before any agent with its load, as it happened, its config and an empty snapshot', async () => {
    await new Promise((done) => setTimeout(done, 20))
    fromContent({ kind: 'resync' })
    await expect.poll(types).toEqual(['page-load', 'config', 'snapshot'])
    const [load, , snapshot] = posted
    expect(load).toMatchObject({ type: 'page-load', url: window.location.href })
    expect(load!.at).toBeGreaterThanOrEqual(installedAt[0])
    expect(load!.at).toBeLessThanOrEqual(installedAt[1])
    expect(snapshot).toMatchObject({ agents: [], config: RECOMMENDED_CONFIG })
  })

  it('applies a config from the relay before any agent, reports it, and runs the first calls under it', async () => {
    const config = { ...RECOMMENDED_CONFIG, thresholds: [2, 9] }
    fromContent({ kind: 'config', config })
    expect(guard.config).toEqual(config)
    await expect.poll(() => posted.at(-1)).toMatchObject({ type: 'config', config })
    const agent = { name: 'unit' }
    await guard.postExecute({ agent, name: 'grep', arguments: { q: 1 } })
    const second = await guard.postExecute({ agent, name: 'grep', arguments: { q: 1 } })
    expect(second.additionalContexts).toHaveLength(1)
    expect(guard.config).toEqual(config)
    // The page's load is reported once per page, however it became active.
    expect(types().filter((t) => t === 'page-load')).toHaveLength(1)
  })

  it('posts the guard events in valid batches', async () => {
    await guard.postExecute({ agent: { name: 'other' }, name: 'ls', arguments: {} })
    await expect.poll(() => types().filter((t) => t === 'call').length).toBe(3)
    expect(posted.find((e) => e.type === 'reminder')).toMatchObject({ agentId: 'hook:1', count: 2, level: 'gentle' })
  })

  it('answers resync with a snapshot of every agent', async () => {
    fromContent({ kind: 'resync' })
    await expect.poll(() => posted.filter((e) => e.type === 'snapshot').at(-1)).toMatchObject({
      agents: [
        { id: 'hook:1', label: 'unit', tool: 'grep', count: 2, nextThreshold: 9 },
        { id: 'hook:2', label: 'other', tool: 'ls', count: 1, nextThreshold: 2 },
      ],
    })
  })

  it('applies a config from the relay once, and ignores malformed ones', async () => {
    const config = { ...RECOMMENDED_CONFIG, thresholds: [4, 7] }
    fromContent({ kind: 'config', config })
    fromContent({ kind: 'config', config })
    fromContent({ kind: 'config', config: { ...config, thresholds: [0] } })
    fromContent({ kind: 'config', config, extra: 1 })
    deliver({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'config', config: RECOMMENDED_CONFIG })
    await expect.poll(() => guard.config.thresholds).toEqual([4, 7])
    await settle()
    expect(posted.filter((e) => e.type === 'config').map((e) => e.type === 'config' && e.config.thresholds)).toEqual([[3, 5, 8], [2, 9], [4, 7]])
  })
})
