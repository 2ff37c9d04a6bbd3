// AG-UI agents, seen from the page (docs/zero-code.md, "Agents whose loop runs on the server"): a
// page on the real `@ag-ui/client` HttpAgent against a server encoding its events with the real
// `@ag-ui/encoder`, in Chromium with the built extension and no page code of the guard.
import { describe, expect, test } from 'vitest'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { mountAgUiServer, type AgUiServer } from '../support/ag-ui-server.ts'
import { expectWireReminders, openReportingPage, reportedEvents, wireCount, wireOf } from '../support/page-events.ts'
import { useStage } from '../support/stage.ts'
import { buildAgentPages } from './pages/build.ts'

let agUi: AgUiServer
const stage = useStage({ pages: () => buildAgentPages('ag-ui'), routes: (server) => void (agUi = mountAgUiServer(server)) })

interface AgUiWindow {
  agui: { run(text: string, tools: 'server' | 'frontend'): Promise<{ roles: string[]; runs: number }> }
}

const DETAILED = detailed('search', 5, '{"q":"threshold"}')

describe('HttpAgent', () => {
  test("server tools: the six calls of the server's loop, reminders at 3 and 5 shown as would-remind", async () => {
    const THREAD = 'loop:6 server tools: why is the threshold ignored?'
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/ag-ui.html`, 'agui')
    const done = await page.evaluate((text) => (window as unknown as AgUiWindow).agui.run(text, 'server'), THREAD)
    expect(done.runs).toBe(1)
    expect(done.roles.filter((r) => r === 'tool')).toHaveLength(6)
    await expect.poll(() => wireCount(page, 'call')).toBe(6)
    const wire = wireOf(await reportedEvents(page))
    expect(wire.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && [e.agent.reach, e.agent.format])).toEqual([['ag-ui', 'ag-ui']])
    expect(wire.filter((e) => e.type === 'reminder').map((e) => e.type === 'reminder' && [e.seq, e.withheld, e.text])).toEqual([
      [3, 'server-loop', GENTLE],
      [5, 'server-loop', DETAILED],
    ])
    expect(agUi.runs.filter((r) => r.first === THREAD).map((r) => r.userTexts)).toEqual([[THREAD]])
  })

  test('frontend tools: the 3rd and 5th follow-up runs carry the reminders, and the server receives them, once each', async () => {
    const THREAD = 'loop:6 frontend tools: why is the threshold ignored?'
    const page = await openReportingPage(stage.browser, `${stage.server.origin}/ag-ui.html`, 'agui')
    const done = await page.evaluate((text) => (window as unknown as AgUiWindow).agui.run(text, 'frontend'), THREAD)
    expect(done.runs).toBe(7)
    const received = agUi.runs.filter((r) => r.first === THREAD).map((r) => r.userTexts.slice(1))
    expect(received).toEqual([[], [], [], [GENTLE], [GENTLE], [GENTLE, DETAILED], [GENTLE, DETAILED]])
    await expectWireReminders(page, [
      [3, undefined],
      [5, undefined],
    ])
    const wire = wireOf(await reportedEvents(page))
    expect(wire.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && e.agent.reach)).toEqual(['ag-ui'])
  })
})
