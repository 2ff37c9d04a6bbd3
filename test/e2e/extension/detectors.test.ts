// The opt-in detectors through the built extension: configured and driven through the page API,
// their new events (a cycle reminder naming its detector, a result-changed reset, a blocked call)
// pass every hop, page -> relay -> service worker -> panel port, without a drop.
import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, type AgentWindow } from './fixture.ts'
import { tapPanelPort } from './panel-tap.ts'

const stage = useStage({ folder: FIXTURES_DIR })
let page: Page

beforeAll(async () => {
  page = await stage.browser.context.newPage()
  await page.goto(`${stage.server.origin}/agent.html`)
})

it('carries cycle reminders, result-changed resets and blocked calls to the panel', async () => {
  const tabId = await stage.browser.tabId(page)
  const decisions = await page.evaluate(async () => {
    const guard = (window as unknown as AgentWindow).__REPEAT_TOOL_GUARD__
    guard.configure({ cycles: { maxPeriod: 2, repeats: 2 }, resultAware: true, stopAfter: 2 })
    const agent = (window as unknown as AgentWindow).agentHarness.agent('looper')
    const call = (name: string) => ({ agent, name, arguments: { path: 'a.txt' } })
    const kinds: string[] = []
    for (const name of ['grep', 'read_file', 'grep', 'read_file'])
      kinds.push(...((await guard.postExecute(call(name), { content: 'same' })).additionalContexts ?? []).map((m) => (m as { source: { summary: string } }).source.summary))
    await guard.postExecute(call('read_file'), { content: 'changed' })
    const pre = guard.preExecute(call('read_file'))
    kinds.push(pre.kind)
    return kinds
  })
  expect(decisions).toEqual(['cycle × 2', 'continue'])
  const blocked = await page.evaluate(async () => {
    const guard = (window as unknown as AgentWindow).__REPEAT_TOOL_GUARD__
    const agent = (window as unknown as AgentWindow).agentHarness.agent('looper')
    await guard.postExecute({ agent, name: 'read_file', arguments: { path: 'a.txt' } }, { content: 'changed' })
    return guard.preExecute({ agent, name: 'read_file', arguments: { path: 'a.txt' } })
  })
  expect(blocked).toMatchObject({ kind: 'block', feedback: expect.stringContaining('(stopAfter: 2)') })

  const panel = await stage.browser.context.newPage()
  await panel.goto(`chrome-extension://${stage.browser.extensionId}/panel.html?tabId=-1`)
  const tap = await tapPanelPort(panel, tabId)
  await expect.poll(async () => (await tap.events()).some((e) => e.type === 'blocked')).toBe(true)
  const events = await tap.events()
  expect(events.find((e) => e.type === 'reminder')).toMatchObject({ level: 'cycle', detector: 'cycle', count: 2, tool: 'read_file' })
  expect(events.filter((e) => e.type === 'reset').map((e) => e.type === 'reset' && e.reason)).toContain('result-changed')
  expect(events.find((e) => e.type === 'blocked')).toMatchObject({ tool: 'read_file', count: 2, feedback: blocked.kind === 'block' ? blocked.feedback : '' })
  expect(events.find((e) => e.type === 'config')).toBeDefined()
  expect(await tap.drops()).toBeUndefined()
})
