// The served page's hooks the panel's tests drive (pages/), and what they read of the panel.
import type { Page } from 'playwright-core'
import type { GuardConfig } from '../../../engine/index.ts'

declare global {
  interface Window {
    callTool(agent: string, tool: string, args: unknown): Promise<string[]>
    received: string[]
    forge(): number
    markup(): Promise<void>
    __REPEAT_TOOL_GUARD__: { readonly config: GuardConfig }
    panelMarker?: string
    connectionStates?: string[]
  }
}

export async function calls(page: Page, agent: string, tool: string, args: unknown, times: number): Promise<string[]> {
  const texts: string[] = []
  for (let i = 0; i < times; i++) texts.push(...(await page.evaluate(([a, t, x]) => window.callTool(a as string, t as string, x), [agent, tool, args])))
  return texts
}

export const labels = (panel: Page) => panel.getByTestId('agent-label').allTextContents()
export const texts = (panel: Page, testId: string) => panel.getByTestId(testId).allTextContents()
