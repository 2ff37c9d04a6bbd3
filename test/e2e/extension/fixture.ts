// What the e2e tests share: the fixture server, the agent harness the fixture page exposes, and
// small helpers to drive it.
import type { Frame, Page } from 'playwright-core'
import { resolve } from 'node:path'
import type { PageGuard } from '../../../extension/src/page/page-api.ts'
import { serve, type TestServer } from '../support/server.ts'

export type Call = [tool: string, args: unknown]

export interface AgentWindow {
  agentHarness: {
    run(agent: string, calls: Call[]): Promise<string[][]>
    step(agent: string, tool: string, args: unknown): Promise<string[]>
    agent(name: string, parentName?: string): object
    prompt(agent: string): void
  }
  firstScriptSaw: { type: string; version: unknown }
  __REPEAT_TOOL_GUARD__: PageGuard
}

// Byte for byte as docs/engine.md ("Reminders") gives it.
export const GENTLE_REMINDER =
  'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.'

/** The folder of the fixture pages, agent.html among them. */
export const FIXTURES_DIR = resolve(import.meta.dirname, '../../fixtures/extension')

export const serveFixtures = (): Promise<TestServer> => serve([FIXTURES_DIR])

/** Runs `calls` through the fixture page's agent `agent` (in a tab or a frame); returns the reminders after each call. */
export function runAgent(page: Page | Frame, agent: string, calls: Call[]): Promise<string[][]> {
  return page.evaluate(([agent, calls]) => (window as unknown as AgentWindow).agentHarness.run(agent, calls), [agent, calls] as const)
}

export const repeat = (times: number, call: Call): Call[] => Array.from({ length: times }, () => call)

/**
 * Runs inside the page (handed to Playwright's or Puppeteer's `evaluate`, so it uses nothing from
 * outside itself): loads a child frame and a srcdoc frame, and returns what each one's first script
 * saw of the page API, and whether the child has a page API of its own. The frames are removed after.
 */
export async function probeFrames(): Promise<{ child: unknown; inline: unknown; own: boolean }> {
  const load = (setup: (frame: HTMLIFrameElement) => void) =>
    new Promise<HTMLIFrameElement>((loaded) => {
      const frame = document.createElement('iframe')
      setup(frame)
      frame.onload = () => loaded(frame)
      document.body.append(frame)
    })
  const child = await load((f) => (f.src = 'agent.html?frame'))
  const inline = await load((f) => (f.srcdoc = '<script>window.firstScriptSaw = typeof window.__REPEAT_TOOL_GUARD__</script>'))
  const read = (f: HTMLIFrameElement) => (f.contentWindow as unknown as { firstScriptSaw: unknown }).firstScriptSaw
  const guardOf = (w: Window | null) => (w as unknown as { __REPEAT_TOOL_GUARD__?: unknown } | null)?.__REPEAT_TOOL_GUARD__
  const seen = { child: read(child), inline: read(inline), own: child.contentWindow !== window && guardOf(child.contentWindow) !== guardOf(window) }
  child.remove()
  inline.remove()
  return seen
}
