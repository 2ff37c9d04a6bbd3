// A page traps every method of its built-ins after the extension's guard is installed: the hooks
// over XMLHttpRequest, fetch, WebMCP and a worker's postMessage still guard their calls, and none of
// the traps is called by the extension.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openaiChatBody, repeat, type Script } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { openReportingPage, reportedEvents } from '../support/page-events.ts'
import type { ToolInputWindow } from '../webmcp/tool-input.ts'
import { builtinTrapsScript, pageScript, type TrapsWindow } from './builtin-traps.ts'
import { useReplacedBuiltinsStage } from './replaced-builtins-stage.ts'

const stage = useReplacedBuiltinsStage()

const READ = { name: 'read_file', args: { path: 'a.txt' } }
/** A conversation whose last three steps are the same call: the request the guard adds the gentle reminder to. */
const LOOP3: Script = { system: 'You are a trapped agent.', turns: [{ prompt: 'go' }, ...repeat(READ, 3)] }

/** The page with every built-in trapped, reporting towards the panel; the traps not yet armed. */
async function trappedPage(): Promise<Page> {
  const page = await openReportingPage(stage.browser, `${stage.server.origin}/traps`)
  await page.evaluate(builtinTrapsScript(pageScript(stage.browser.extensionId!)))
  expect(await page.evaluate(() => (window as unknown as TrapsWindow).builtinTraps.count)).toBeGreaterThan(200)
  return page
}

const arm = (page: Page, armed: boolean) => page.evaluate((on) => void ((window as unknown as TrapsWindow).builtinTraps.armed = on), armed)
const hitsOf = (page: Page) => page.evaluate(() => (window as unknown as TrapsWindow).builtinTraps.hits)

/** Waits until the page has reported `count` events of `type`: what the hook left to do afterwards is done. */
async function reported(page: Page, type: string, count: number): Promise<void> {
  await expect.poll(async () => (await reportedEvents(page)).filter((e) => e.type === type).length).toBe(count)
}

const llmModel = (name: string) => `${name}-${Math.random().toString(36).slice(2)}`
const llmBody = (model: string) => JSON.stringify({ ...openaiChatBody(LOOP3), model, stream: false })

/** Once the page reported its reminder: the model received it, and no trap fired while armed. */
async function expectChatRequestGuarded(page: Page, model: string, status: number): Promise<void> {
  await reported(page, 'reminder', 1)
  await arm(page, false)
  expect(status).toBe(200)
  const sent = JSON.parse(stage.mock.exchanges.find((e) => e.model === model)!.body)
  expect(sent.messages[8]).toEqual({ role: 'user', content: GENTLE })
  expect(await hitsOf(page)).toEqual([])
  await page.close()
}

describe('a page that traps every method of its built-ins after load', () => {
  it('XMLHttpRequest: an LLM request gets its reminder; the extension calls none of the traps', async () => {
    const page = await trappedPage()
    const model = llmModel('xhr-traps')
    stage.mock.script(model, { steps: [[READ]] })
    await arm(page, true)
    const status = await page.evaluate((text) => {
      const xhr = new XMLHttpRequest()
      xhr.open('POST', '/v1/chat/completions', false)
      xhr.setRequestHeader('Content-Type', 'application/json')
      xhr.setRequestHeader('X-Trace', 'on')
      xhr.send(text)
      return xhr.status
    }, llmBody(model))
    await expectChatRequestGuarded(page, model, status)
  })

  it('fetch: an LLM request gets its reminder; the extension calls none of the traps', async () => {
    const page = await trappedPage()
    const model = llmModel('fetch-traps')
    stage.mock.script(model, { steps: [[READ]] })
    await arm(page, true)
    const status = await page.evaluate(async (text) => {
      const response = await fetch('/v1/chat/completions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text })
      return response.status
    }, llmBody(model))
    await expectChatRequestGuarded(page, model, status)
  })

  it("a worker's postMessage (WebLLM): the chat request gets its reminder; the extension calls none of the traps", async () => {
    const page = await trappedPage()
    await page.evaluate(() => {
      const echo = new Worker(URL.createObjectURL(new Blob(['onmessage = (event) => postMessage(event.data)'], { type: 'text/javascript' })))
      Object.assign(window, { echo })
    })
    await arm(page, true)
    const received = await page.evaluate(
      (request) => {
        const echo = (window as unknown as { echo: Worker }).echo
        const back = new Promise<{ content: { request: { messages: unknown[] } } }>((resolve) => (echo.onmessage = (event) => resolve(event.data)))
        echo.postMessage({ kind: 'chatCompletionNonStreaming', uuid: 'u-1', content: { request, modelId: ['m'], chatOpts: undefined } })
        return back
      },
      { ...openaiChatBody(LOOP3), model: 'm', stream: false },
    )
    await reported(page, 'reminder', 1)
    await arm(page, false)
    expect(received.content.request.messages[8]).toEqual({ role: 'user', content: GENTLE })
    expect(await hitsOf(page)).toEqual([])
    await page.close()
  })

  it('WebMCP: the third call of a tool gets its reminder; the extension calls none of the traps', async () => {
    const page = await trappedPage()
    await arm(page, true)
    const results = await page.evaluate(async (args) => {
      const context = (
        document as unknown as { modelContext: { registerTool(tool: object): Promise<void>; getTools(): Promise<{ name: string }[]>; executeTool(tool: object, input: unknown): Promise<string> } }
      ).modelContext
      await context.registerTool({
        name: 'read_file',
        description: 'Reads a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
        execute: () => ({ content: [{ type: 'text', text: 'notes' }] }),
      })
      const tools = await context.getTools()
      let tool: object | undefined
      for (let i = 0; i < tools.length; i++) if (tools[i]!.name === 'read_file') tool = tools[i]
      const out: string[] = []
      for (let i = 0; i < 3; i++) out[i] = await context.executeTool(tool!, (window as unknown as ToolInputWindow).toolInput(args))
      return out
    }, READ.args)
    await reported(page, 'reminder', 1)
    await arm(page, false)
    expect(JSON.parse(results[2]!)).toEqual({
      content: [
        { type: 'text', text: 'notes' },
        { type: 'text', text: GENTLE },
      ],
    })
    expect(await hitsOf(page)).toEqual([])
    await page.close()
  })
})
