// The page-facing API: window.__REPEAT_TOOL_GUARD__ as an in-page agent uses it.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { PROTOCOL_VERSION } from '../../../extension/src/protocol/events.ts'
import { useStage } from '../support/stage.ts'
import { FIXTURES_DIR, GENTLE_REMINDER, probeFrames, type AgentWindow } from './fixture.ts'

const stage = useStage({ folder: FIXTURES_DIR })
let page: Page

beforeAll(async () => {
  page = await stage.browser.context.newPage()
  await page.goto(`${stage.server.origin}/agent.html`)
})

describe('window.__REPEAT_TOOL_GUARD__', () => {
  it('exists before the page runs its first script, with the protocol version', async () => {
    expect(await page.evaluate(() => (window as unknown as AgentWindow).firstScriptSaw)).toEqual({ type: 'object', version: PROTOCOL_VERSION })
  })

  it('is installed in every frame, before its first script, srcdoc frames included', async () => {
    const seen = await page.evaluate(probeFrames)
    expect(seen).toEqual({ child: { type: 'object', version: PROTOCOL_VERSION }, inline: 'object', own: true })
  })

  it('cannot be replaced, deleted or altered by the page', async () => {
    const result = await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>
      const original = (window as unknown as AgentWindow).__REPEAT_TOOL_GUARD__
      const observe = original.observe
      try {
        w.__REPEAT_TOOL_GUARD__ = {}
      } catch {
        // strict-mode pages get a TypeError; either way nothing changes
      }
      const deleted = delete w.__REPEAT_TOOL_GUARD__
      try {
        ;(original as unknown as Record<string, unknown>).observe = () => 'hijacked'
      } catch {
        // frozen
      }
      return { same: w.__REPEAT_TOOL_GUARD__ === original, deleted, frozen: Object.isFrozen(original), observeIntact: original.observe === observe }
    })
    expect(result).toEqual({ same: true, deleted: false, frozen: true, observeIntact: true })
  })

  it('gives the gentle reminder at the 3rd identical call and the detailed one at the 5th', async () => {
    const reminders = await page.evaluate(() =>
      (window as unknown as AgentWindow).agentHarness.run(
        'repeater',
        Array.from({ length: 6 }, () => ['read_file', { path: 'a.txt', lines: [1, 2] }]),
      ),
    )
    expect(reminders.map((r) => r.length)).toEqual([0, 0, 1, 0, 1, 0])
    expect(reminders[2]).toEqual([GENTLE_REMINDER])
    expect(reminders[4]![0]).toBe(
      [
        'Repeated tool call detected:',
        '- tool: read_file',
        '- consecutive_calls: 5',
        '- arguments: {"lines":[1,2],"path":"a.txt"}',
        'The repeated calls are not making progress. Do not call this tool with these exact arguments again. Inspect the latest result and choose a different action, different arguments, or finish the task if enough evidence has been gathered.',
      ].join('\n'),
    )
  })

  it('treats todo_write as transparent (the recommended config)', async () => {
    const reminders = await page.evaluate(() =>
      (window as unknown as AgentWindow).agentHarness.run('planner', [
        ['grep', { q: 'x' }],
        ['todo_write', { todos: ['a'] }],
        ['grep', { q: 'x' }],
        ['todo_write', { todos: ['b'] }],
        ['grep', { q: 'x' }],
      ]),
    )
    expect(reminders).toEqual([[], [], [], [], [GENTLE_REMINDER]])
  })

  it('throws a TypeError for bad arguments without breaking the chain', async () => {
    const result = await page.evaluate(async () => {
      const { agentHarness: h, __REPEAT_TOOL_GUARD__: guard } = window as unknown as AgentWindow
      const errors: string[] = []
      const expectTypeError = async (attempt: () => unknown) => {
        try {
          await attempt()
          errors.push('no error')
        } catch (error) {
          errors.push(error instanceof TypeError ? 'TypeError' : String(error))
        }
      }
      const agent = h.agent('careful')
      await h.step('careful', 'search', { q: 'loop' })
      await h.step('careful', 'search', { q: 'loop' })
      await expectTypeError(() => guard.postExecute(null as never))
      await expectTypeError(() => guard.postExecute({ agent, name: '' }))
      await expectTypeError(() => guard.postExecute({ agent: 42 as never, name: 'search' }))
      await expectTypeError(() => guard.observe({ agent, name: 7 as never }))
      await expectTypeError(() => guard.promptSubmit('agent' as never))
      await expectTypeError(() => guard.subscribe('listener' as never))
      // A listener that throws is the page's own problem: the guard goes on.
      guard.subscribe(() => {
        throw new Error('page listener failed')
      })
      const third = await h.step('careful', 'search', { q: 'loop' })
      let configError = ''
      try {
        guard.configure({ threshold: [2] } as never)
      } catch (error) {
        configError = (error as Error).name
      }
      return { errors, third, configError, thresholds: guard.config.thresholds }
    })
    expect(result.errors).toEqual(Array(6).fill('TypeError'))
    expect(result.third).toEqual([GENTLE_REMINDER])
    expect(result.configError).toBe('GuardConfigError')
    expect(result.thresholds).toEqual([3, 5, 8])
  })
})
