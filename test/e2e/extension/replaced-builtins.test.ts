// A page replaces built-ins after the extension's guard is installed. With throwing versions,
// every call through window.__REPEAT_TOOL_GUARD__ still completes and the panel shows the faults;
// with fake timers on Date and a JSON polyfill, reminders still arrive in the page and the panel;
// with traps on every method of the built-ins, the hooks over XMLHttpRequest, fetch, WebMCP and a
// worker's postMessage still guard their calls, and none of the traps is called by the extension.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openaiChatBody, repeat, type Script } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { openReportingPage, reportedEvents } from '../support/page-events.ts'
import { routeHtml } from '../support/server.ts'
import { useStage } from '../support/stage.ts'
import { TOOL_INPUT_SCRIPT, type ToolInputWindow } from '../webmcp/tool-input.ts'
import { builtinTrapsScript, pageScript, type TrapsWindow } from './builtin-traps.ts'
import { FIXTURES_DIR, GENTLE_REMINDER, type AgentWindow } from './fixture.ts'
import { tapPanelPort } from './panel-tap.ts'

const stage = useStage({
  folder: FIXTURES_DIR,
  routes: (server) => routeHtml(server, '/traps', `<!doctype html><title>Trapped built-ins</title>${TOOL_INPUT_SCRIPT}`),
  launch: { args: ['--enable-features=WebMCP', '--enable-experimental-web-platform-features'] },
})

const PAGE_ERROR = 'replaced by the page'

// [owner, key]: resolved inside the page. `@@iterator` stands for Symbol.iterator.
const THROWING_CORPUS: [string, string][] = [
  ...['includes', 'find', 'map', 'push', 'pop', 'indexOf', 'slice', 'some', 'every', 'join', 'concat', 'forEach', 'filter', '@@iterator'].map(
    (key): [string, string] => ['Array.prototype', key],
  ),
  ['Array', 'isArray'],
  ...['get', 'set', 'has', 'delete', 'forEach', '@@iterator'].map((key): [string, string] => ['Map.prototype', key]),
  ...['get', 'set', 'has'].map((key): [string, string] => ['WeakMap.prototype', key]),
  ...['add', 'has', 'delete'].map((key): [string, string] => ['WeakSet.prototype', key]),
  ...['freeze', 'keys', 'hasOwn', 'create'].map((key): [string, string] => ['Object', key]),
  ['JSON', 'parse'],
  ['JSON', 'stringify'],
  ['Date', 'now'],
  ...['then', 'catch', 'finally'].map((key): [string, string] => ['Promise.prototype', key]),
  ['Promise', 'resolve'],
  ...['call', 'apply', 'bind'].map((key): [string, string] => ['Function.prototype', key]),
  ...['slice', 'charCodeAt', 'startsWith'].map((key): [string, string] => ['String.prototype', key]),
]

describe('a page that replaces built-ins after load', () => {
  it('with throwing versions: every call completes, and the panel shows the faults', async () => {
    const { page, tabId } = await stage.open('agent.html?throwing')
    const outcome = await page.evaluate(
      async ({ corpus, message }) => {
        const guard = (window as unknown as AgentWindow).__REPEAT_TOOL_GUARD__
        // The page's own plumbing, taken before it breaks its built-ins.
        const { defineProperty, getOwnPropertyDescriptor } = Object
        const owners: Record<string, object> = {
          'Array.prototype': Array.prototype, Array, 'Map.prototype': Map.prototype, 'WeakMap.prototype': WeakMap.prototype,
          'WeakSet.prototype': WeakSet.prototype, Object, JSON, Date, 'Promise.prototype': Promise.prototype, Promise,
          'Function.prototype': Function.prototype, 'String.prototype': String.prototype,
        }
        const thrower = () => {
          throw new Error(message)
        }
        const restore: (() => void)[] = corpus.map(([owner, name]) => {
          const target = owners[owner]!
          const key = name === '@@iterator' ? Symbol.iterator : name
          const original = getOwnPropertyDescriptor(target, key)!
          return () => defineProperty(target, key, original)
        })
        // From here on: index loops, no destructuring, no spread, no array methods.
        for (let i = 0; i < corpus.length; i++) {
          const name = corpus[i]![1]
          defineProperty(owners[corpus[i]![0]]!, name === '@@iterator' ? Symbol.iterator : name, { value: thrower, writable: true, configurable: true })
        }

        const log: string[] = []
        let escaped = ''
        try {
          const agent = { name: 'main' }
          for (let i = 0; i < 5; i++) {
            const decision = await guard.postExecute({ agent, name: 'read_file', arguments: { path: 'a.txt', lines: [1, 2] } }, { isError: false })
            log[log.length] = `postExecute ${decision.kind} ${decision.additionalContexts === undefined ? 0 : decision.additionalContexts.length}`
          }
          log[log.length] = `observe ${String(guard.observe({ agent, name: 'grep', arguments: '{"q":"x"}' }))}`
          // Arguments that parse to a flat record need no serialiser (the engine writes them with
          // the JSON.stringify it captured): that call is guarded.
          const chain = guard.snapshot()[0]!
          log[log.length] = `chain ${chain.tool} ${chain.canonicalArguments} ${chain.count}`
          guard.promptSubmit(agent)
          log[log.length] = `snapshot ${guard.snapshot().length}`
          // The hooks print as the originals through one stand-in for Function.prototype.toString,
          // which the page's own functions go through too: it must not lean on what the page broke.
          log[log.length] = `toString ${fetch.toString()} ${(function own() {}).toString()}`
          // Leave the batch time to go out while everything is still broken.
          await new Promise((done) => setTimeout(done, 200))
        } catch (error) {
          escaped = `${error}`
        } finally {
          for (let i = 0; i < restore.length; i++) restore[i]!()
        }
        return { log, escaped }
      },
      { corpus: THROWING_CORPUS, message: PAGE_ERROR },
    )
    expect(outcome).toEqual({
      escaped: '',
      log: [...Array(5).fill('postExecute continue 0'), 'observe undefined', 'chain grep {"q":"x"} 1', 'snapshot 1', 'toString function fetch() { [native code] } function own() {}'],
    })

    const panel = await stage.browser.openPanel(tabId)
    await expect.poll(() => panel.getByTestId('agent-label').allTextContents(), { timeout: 10_000 }).toEqual(['main'])
    // A fault for each of the five calls whose arguments (a nested array) need the serialiser. The
    // relay brings the stored settings once the page has spoken: if they arrive while the page's
    // built-ins still throw, the page's handler reports one more fault instead of applying them
    // (page-builtins.test.ts covers that handler); whether they do is a matter of timing, so the
    // count may be 6.
    await expect.poll(() => panel.getByTestId('faults').textContent()).toMatch(/^✖ [56] faults$/)
    await panel.getByTestId('faults').click()
    const details = (await panel.getByTestId('faults-detail').textContent()) ?? ''
    const callFaults = details.match(/(postExecute|observe): a built-in the serialiser calls was replaced and throws: replaced by the page/g) ?? []
    expect(callFaults).toEqual(Array(5).fill('postExecute: a built-in the serialiser calls was replaced and throws: replaced by the page'))

    // Built-ins back: the same agent is guarded again (the failed calls counted nothing).
    const after = await page.evaluate(async () => {
      const guard = (window as unknown as AgentWindow).__REPEAT_TOOL_GUARD__
      const fresh = { name: 'after' }
      const out: number[] = []
      for (let i = 0; i < 3; i++) out.push((await guard.postExecute({ agent: fresh, name: 'grep', arguments: { q: 1 } })).additionalContexts?.length ?? 0)
      return out
    })
    expect(after).toEqual([0, 0, 1])
  })

  it('with fake timers on Date and a JSON polyfill: reminders at 3 and 5 arrive in the page and in the panel', async () => {
    const { page, tabId } = await stage.open('agent.html?polyfilled')
    const started = Date.now()
    const received = await page.evaluate(async (args) => {
      const NativeDate = Date
      const nativeJson = JSON
      // What fake-timer libraries install: a Date class whose clock the test controls.
      class FakeDate extends NativeDate {
        static override now() {
          return 0
        }
      }
      // A working JSON of its own, escaping `"` differently from the native one.
      const polyfill = {
        parse: (text: string) => nativeJson.parse(text) as unknown,
        stringify: (value: unknown) => nativeJson.stringify(value)?.replaceAll('\\"', '\\u0022'),
      }
      const w = window as unknown as { Date: DateConstructor; JSON: unknown }
      w.Date = FakeDate as unknown as DateConstructor
      w.JSON = polyfill
      try {
        return await (window as unknown as AgentWindow).agentHarness.run('faked', Array.from({ length: 5 }, () => ['grep', args]))
      } finally {
        w.Date = NativeDate
        w.JSON = nativeJson
      }
    }, '{"q":"say \\"hi\\"","n":[1]}')
    expect(received.map((r) => r.length)).toEqual([0, 0, 1, 0, 1])
    expect(received[2]).toEqual([GENTLE_REMINDER])
    expect(received[4]![0]).toContain('- consecutive_calls: 5')

    const panel = await stage.browser.openPanel(tabId)
    await expect.poll(() => panel.getByTestId('reminder-text').allTextContents(), { timeout: 10_000 }).toEqual(received.flat())
    expect(await panel.getByTestId('faults').count()).toBe(0)
    // The timeline keeps the real clock: the page's fake one is the page's business.
    const tap = await tapPanelPort(panel, tabId)
    const remindersOf = async () => (await tap.events()).filter((e) => e.type === 'reminder')
    // The tap gets the tab's history over its own port: wait for it rather than read it at once.
    await expect.poll(async () => (await remindersOf()).length).toBe(2)
    const reminders = await remindersOf()
    for (const reminder of reminders) expect(reminder.at).toBeGreaterThanOrEqual(started)
  })
})

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
  await expect.poll(async () => (await reportedEvents(page)).filter((e) => e.type === type).length, { timeout: 10_000 }).toBe(count)
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
    const received = await page.evaluate((request) => {
      const echo = (window as unknown as { echo: Worker }).echo
      const back = new Promise<{ content: { request: { messages: unknown[] } } }>((resolve) => (echo.onmessage = (event) => resolve(event.data)))
      echo.postMessage({ kind: 'chatCompletionNonStreaming', uuid: 'u-1', content: { request, modelId: ['m'], chatOpts: undefined } })
      return back
    }, { ...openaiChatBody(LOOP3), model: 'm', stream: false })
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
      const context = (document as unknown as { modelContext: { registerTool(tool: object): Promise<void>; getTools(): Promise<{ name: string }[]>; executeTool(tool: object, input: unknown): Promise<string> } }).modelContext
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
    expect(JSON.parse(results[2]!)).toEqual({ content: [{ type: 'text', text: 'notes' }, { type: 'text', text: GENTLE }] })
    expect(await hitsOf(page)).toEqual([])
    await page.close()
  })
})
