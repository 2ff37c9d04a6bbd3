// @vitest-environment happy-dom
// The MAIN-world entry as a page sees it: what it installs, what it posts, what it answers.
import { beforeAll, describe, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import type { PageGuard } from '../../../extension/src/page/page-api.ts'
import { PROTOCOL_VERSION, type InspectorEvent } from '../../../extension/src/protocol/events.ts'
import { CONTENT_SOURCE, PAGE_SOURCE } from '../../../extension/src/protocol/messages.ts'
import { checkPageToContent } from '../../../extension/src/protocol/validate.ts'

const posted: InspectorEvent[] = []
let guard: PageGuard

beforeAll(async () => {
  window.addEventListener('message', (event) => {
    const checked = checkPageToContent(event.data)
    if (checked.ok && checked.value.kind === 'events') posted.push(...checked.value.events)
  })
  await import('../../../extension/src/page/index.ts')
  guard = (window as unknown as { __REPEAT_TOOL_GUARD__: PageGuard }).__REPEAT_TOOL_GUARD__
})

const types = () => posted.map((e) => e.type)
// Dispatched rather than posted: the test environment's postMessage names another object as source.
const deliver = (data: object) => window.dispatchEvent(new MessageEvent('message', { data, source: window }))
const fromContent = (message: object) => deliver({ source: CONTENT_SOURCE, v: PROTOCOL_VERSION, ...message })

describe('the page script', () => {
  it('installs the guard and announces the page and its config', async () => {
    expect(guard.version).toBe(PROTOCOL_VERSION)
    expect(guard.config).toEqual(RECOMMENDED_CONFIG)
    await expect.poll(() => types().slice(0, 2)).toEqual(['page-load', 'config'])
    expect(posted[0]).toMatchObject({ type: 'page-load', url: window.location.href })
  })

  it('posts the guard events in valid batches', async () => {
    const agent = { name: 'unit' }
    for (let i = 0; i < 3; i++) await guard.postExecute({ agent, name: 'grep', arguments: { q: 1 } })
    await expect.poll(() => types().filter((t) => t === 'call').length).toBe(3)
    expect(posted.find((e) => e.type === 'reminder')).toMatchObject({ agentId: 'hook:1', count: 3, level: 'gentle' })
  })

  it('answers resync with a snapshot of every agent', async () => {
    fromContent({ kind: 'resync' })
    await expect.poll(() => posted.find((e) => e.type === 'snapshot')).toMatchObject({
      agents: [{ id: 'hook:1', label: 'unit', tool: 'grep', count: 3, nextThreshold: 5 }],
      config: RECOMMENDED_CONFIG,
    })
  })

  it('applies a config from the relay once, and ignores malformed ones', async () => {
    const config = { ...RECOMMENDED_CONFIG, thresholds: [2, 9] }
    fromContent({ kind: 'config', config })
    fromContent({ kind: 'config', config })
    fromContent({ kind: 'config', config: { ...config, thresholds: [0] } })
    fromContent({ kind: 'config', config, extra: 1 })
    deliver({ source: PAGE_SOURCE, v: PROTOCOL_VERSION, kind: 'config', config: RECOMMENDED_CONFIG })
    await expect.poll(() => guard.config.thresholds).toEqual([2, 9])
    fromContent({ kind: 'resync' })
    await expect.poll(() => types().filter((t) => t === 'snapshot').length).toBe(2)
    expect(posted.filter((e) => e.type === 'config').map((e) => e.type === 'config' && e.config.thresholds)).toEqual([[3, 5, 8], [2, 9]])
  })

  it('applies a config that differs only in a detector, and takes a detector left out as off', async () => {
    const withCycles = { ...RECOMMENDED_CONFIG, cycles: { maxPeriod: 2, repeats: 2 } }
    fromContent({ kind: 'config', config: withCycles })
    await expect.poll(() => guard.config).toEqual(withCycles)
    fromContent({ kind: 'config', config: RECOMMENDED_CONFIG })
    await expect.poll(() => guard.config).toEqual(RECOMMENDED_CONFIG)
  })
})
