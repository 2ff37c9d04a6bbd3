// A page replaces built-ins after the extension's guard is installed. With throwing versions,
// every call through window.__REPEAT_TOOL_GUARD__ still completes and the panel shows the faults;
// with fake timers on Date and a JSON polyfill, reminders still arrive in the page and the panel.
// With traps on every method of the built-ins: trapped-builtins.test.ts.
import { describe, expect, it } from 'vitest'
import { GENTLE_REMINDER, type AgentWindow } from './fixture.ts'
import { tapPanelPort } from './panel-tap.ts'
import { useReplacedBuiltinsStage } from './replaced-builtins-stage.ts'

const stage = useReplacedBuiltinsStage()

const PAGE_ERROR = 'replaced by the page'

// [owner, key]: resolved inside the page. `@@iterator` stands for Symbol.iterator.
const THROWING_CORPUS: [string, string][] = [
  ...['includes', 'find', 'map', 'push', 'pop', 'indexOf', 'slice', 'some', 'every', 'join', 'concat', 'forEach', 'filter', '@@iterator'].map((key): [string, string] => ['Array.prototype', key]),
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
          'Array.prototype': Array.prototype,
          Array,
          'Map.prototype': Map.prototype,
          'WeakMap.prototype': WeakMap.prototype,
          'WeakSet.prototype': WeakSet.prototype,
          Object,
          JSON,
          Date,
          'Promise.prototype': Promise.prototype,
          Promise,
          'Function.prototype': Function.prototype,
          'String.prototype': String.prototype,
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
    await expect.poll(() => panel.getByTestId('agent-label').allTextContents()).toEqual(['main'])
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
        return await (window as unknown as AgentWindow).agentHarness.run(
          'faked',
          Array.from({ length: 5 }, () => ['grep', args]),
        )
      } finally {
        w.Date = NativeDate
        w.JSON = nativeJson
      }
    }, '{"q":"say \\"hi\\"","n":[1]}')
    expect(received.map((r) => r.length)).toEqual([0, 0, 1, 0, 1])
    expect(received[2]).toEqual([GENTLE_REMINDER])
    expect(received[4]![0]).toContain('- consecutive_calls: 5')

    const panel = await stage.browser.openPanel(tabId)
    await expect.poll(() => panel.getByTestId('reminder-text').allTextContents()).toEqual(received.flat())
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
