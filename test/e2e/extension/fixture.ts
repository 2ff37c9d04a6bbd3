// What the e2e tests share: the fixture server, the agent harness the fixture page exposes, and
// small helpers to drive it.
import type { Page } from 'playwright-core'
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

// Byte for byte as ENGINE.md specifies it.
export const GENTLE_REMINDER =
  'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.'

export const serveFixtures = (): Promise<TestServer> => serve([resolve(import.meta.dirname, '../../fixtures/extension')])

/** Runs `calls` through the fixture page's agent `agent`; returns the reminders after each call. */
export function runAgent(page: Page, agent: string, calls: Call[]): Promise<string[][]> {
  return page.evaluate(([agent, calls]) => (window as unknown as AgentWindow).agentHarness.run(agent, calls), [agent, calls] as const)
}

export const repeat = (times: number, call: Call): Call[] => Array.from({ length: times }, () => call)
