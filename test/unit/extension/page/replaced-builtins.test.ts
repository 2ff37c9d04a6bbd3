// A page replaces built-ins after the guard is installed: with throwing versions (a hostile or
// broken script), with fake timers, with a JSON polyfill. Its calls through the page API always
// complete; the guard either keeps reminding or reports a fault. With traps on every built-in, the
// hooks over its transports call none of them.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRepeatToolGuard, GuardConfigError, RECOMMENDED_CONFIG, type GuardEvent, type PostToolDecision } from '../../../../engine/index.ts'
import { createPageGuard, type PageGuard } from '../../../../extension/src/page/page-api.ts'
import { GENTLE as GENTLE_REMINDER } from '../../engine/support/texts.ts'
import { installFetchInterceptor } from '../../../../extension/src/page/fetch/install.ts'
import { installWebllmInterceptor } from '../../../../extension/src/page/webllm/install.ts'
import { installWebMcpHooks } from '../../../../extension/src/page/webmcp/install.ts'
import type { WebMcpInspector } from '../../../../extension/src/page/webmcp/inspector.ts'
import type { WireInspector } from '../../../../extension/src/page/wire/inspector.ts'
import { installXhrInterceptor } from '../../../../extension/src/page/xhr/install.ts'
import { openaiChatBody, repeat } from '../../../fixtures/wire/conversations.ts'
import { createTraps, type Traps } from './builtin-traps.ts'

// Captured before any test replaces anything: the tests' own plumbing must not depend on the corpus.
const { defineProperty, getOwnPropertyDescriptor } = Object
const NativeDate = Date
const nativeJson = JSON

const PAGE_ERROR = 'replaced by the page'
const thrower = () => {
  throw new Error(PAGE_ERROR)
}

/** Puts `replacement` at `target[key]` (as the getter, for an accessor); returns what puts the original back. */
function replace(target: object, key: PropertyKey, replacement: unknown): () => void {
  const original = getOwnPropertyDescriptor(target, key)!
  defineProperty(target, key, original.get ? { ...original, get: replacement as () => unknown } : { ...original, value: replacement })
  return () => defineProperty(target, key, original)
}

function whileReplaced<R>(target: object, key: PropertyKey, replacement: unknown, run: () => R): R {
  const restore = replace(target, key, replacement)
  try {
    return run()
  } finally {
    restore()
  }
}

/** As `whileReplaced`, across the awaits of `run`. */
async function whileReplacedAsync<R>(target: object, key: PropertyKey, replacement: unknown, run: () => Promise<R>): Promise<R> {
  await null // the test runner attaches its own handlers to the test's promise first
  const restore = replace(target, key, replacement)
  try {
    return await run()
  } finally {
    restore()
  }
}

function setup() {
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const faults: string[] = []
  const events: GuardEvent[] = []
  guard.subscribe((event) => {
    events[events.length] = event
    if (event.type === 'fault') faults[faults.length] = event.message
  })
  const api = createPageGuard(guard, 1, (message) => void (faults[faults.length] = message))
  return { api, faults, events }
}

// Arguments that take the serialiser through objects, arrays, strings and numbers.
const ARGS = { path: 'src/format.ts', lines: [1, 20] }

/**
 * Every page API call, made while the corpus entry is in place (no `next`: `postExecute` runs to
 * its end synchronously). Written without the built-ins under test: index loops, no spread.
 */
function callEverything(api: PageGuard) {
  const agent = { name: 'main' }
  const decisions: Promise<PostToolDecision>[] = []
  for (let i = 0; i < 5; i++) decisions[i] = api.postExecute({ agent, name: 'read_file', arguments: ARGS }, { isError: false })
  const observed = api.observe({ agent: { name: 'other' }, name: 'grep', arguments: '{"q":"x","n":[1]}' })
  const snapshot = api.snapshot()
  api.promptSubmit(agent)
  const afterPrompt = api.snapshot()
  return { decisions, observed, snapshot, afterPrompt }
}

const reminderTexts = (d: PostToolDecision) => (d.additionalContexts ?? []).map((m) => (m as { content: { text: string }[] }).content[0].text)

type Outcome = 'reminds' | 'faults'
interface Entry {
  readonly name: string
  readonly target: object
  readonly key: PropertyKey
  /** `reminds`: the guard does not use it at call time. `faults`: the serialiser dependency does. */
  readonly outcome: Outcome
}

const proto = (value: object) => Object.getPrototypeOf(value) as object
const CORPUS: Entry[] = [
  ...(['includes', 'find', 'map', 'some', 'every', 'slice', 'concat', 'join', 'forEach', 'filter', Symbol.iterator] as const).map(
    (key) => ({ name: `Array.prototype.${String(key)}`, target: Array.prototype, key, outcome: 'reminds' as const }),
  ),
  { name: 'Array iterator next', target: proto([][Symbol.iterator]()), key: 'next', outcome: 'reminds' },
  // The serialiser keeps its stack of open objects with these.
  ...(['push', 'pop', 'indexOf'] as const).map((key) => ({ name: `Array.prototype.${key}`, target: Array.prototype, key, outcome: 'faults' as const })),
  { name: 'Array.isArray', target: Array, key: 'isArray', outcome: 'faults' },
  { name: 'Array.from', target: Array, key: 'from', outcome: 'reminds' },
  // What `concat`, `slice` and `map` would build their result with.
  { name: 'Array[Symbol.species]', target: Array, key: Symbol.species, outcome: 'reminds' },
  ...(['get', 'set', 'has', 'delete', 'clear', 'forEach', 'keys', Symbol.iterator] as const).map(
    (key) => ({ name: `Map.prototype.${String(key)}`, target: Map.prototype, key, outcome: 'reminds' as const }),
  ),
  { name: 'Map.prototype.size', target: Map.prototype, key: 'size', outcome: 'reminds' },
  ...(['get', 'set', 'has'] as const).map((key) => ({ name: `WeakMap.prototype.${key}`, target: WeakMap.prototype, key, outcome: 'reminds' as const })),
  ...(['add', 'has', 'delete'] as const).map((key) => ({ name: `WeakSet.prototype.${key}`, target: WeakSet.prototype, key, outcome: 'reminds' as const })),
  { name: 'Set.prototype.has', target: Set.prototype, key: 'has', outcome: 'reminds' },
  { name: 'WeakRef.prototype.deref', target: WeakRef.prototype, key: 'deref', outcome: 'reminds' },
  { name: 'FinalizationRegistry.prototype.register', target: FinalizationRegistry.prototype, key: 'register', outcome: 'reminds' },
  { name: 'WeakRef', target: globalThis, key: 'WeakRef', outcome: 'reminds' },
  ...(['freeze', 'create', 'hasOwn', 'isFrozen', 'assign', 'entries'] as const).map(
    (key) => ({ name: `Object.${key}`, target: Object, key, outcome: 'reminds' as const }),
  ),
  { name: 'Object.keys', target: Object, key: 'keys', outcome: 'faults' },
  { name: 'JSON.parse', target: JSON, key: 'parse', outcome: 'reminds' },
  // Called by the serialiser only for strings it must escape, which these arguments have none of.
  { name: 'JSON.stringify', target: JSON, key: 'stringify', outcome: 'reminds' },
  { name: 'Date.now', target: Date, key: 'now', outcome: 'reminds' },
  { name: 'Date', target: globalThis, key: 'Date', outcome: 'reminds' },
  ...(['then', 'catch', 'finally'] as const).map((key) => ({ name: `Promise.prototype.${key}`, target: Promise.prototype, key, outcome: 'reminds' as const })),
  { name: 'Promise.resolve', target: Promise, key: 'resolve', outcome: 'reminds' },
  ...(['call', 'apply', 'bind'] as const).map((key) => ({ name: `Function.prototype.${key}`, target: Function.prototype, key, outcome: 'reminds' as const })),
  ...(['slice', 'charCodeAt', 'startsWith', 'replaceAll', 'replace', 'split'] as const).map(
    (key) => ({ name: `String.prototype.${key}`, target: String.prototype, key, outcome: 'reminds' as const }),
  ),
  { name: 'String', target: globalThis, key: 'String', outcome: 'faults' },
  { name: 'Error', target: globalThis, key: 'Error', outcome: 'reminds' },
  { name: 'Number.isFinite', target: Number, key: 'isFinite', outcome: 'reminds' },
  { name: 'isFinite', target: globalThis, key: 'isFinite', outcome: 'faults' },
  { name: 'Math.min', target: Math, key: 'min', outcome: 'faults' },
  { name: 'Reflect.apply', target: Reflect, key: 'apply', outcome: 'reminds' },
  // `test` reads `exec` off the expression: the serialiser's check for characters to escape.
  { name: 'RegExp.prototype.test', target: RegExp.prototype, key: 'test', outcome: 'faults' },
  { name: 'RegExp.prototype.exec', target: RegExp.prototype, key: 'exec', outcome: 'faults' },
]

afterEach(() => {
  vi.useRealTimers()
})

describe('a page that replaces a built-in with a throwing one after the guard is installed', () => {
  it.each(CORPUS)('$name: every call completes; the guard $outcome', async ({ target, key, outcome }) => {
    const { api, faults, events } = setup()
    const before = getOwnPropertyDescriptor(target, key)
    const { decisions, observed, snapshot, afterPrompt } = whileReplaced(target, key, thrower, () => callEverything(api))
    expect(getOwnPropertyDescriptor(target, key)).toEqual(before)
    const settled = await Promise.all(decisions)
    for (const decision of settled) expect(decision).toMatchObject({ kind: 'continue' })
    expect(snapshot).toEqual(expect.arrayContaining([expect.objectContaining({ label: 'main' })]))
    expect(afterPrompt).toEqual(expect.arrayContaining([expect.objectContaining({ label: 'main', count: 0 })]))
    if (outcome === 'reminds') {
      expect(faults).toEqual([])
      expect(settled.map(reminderTexts)).toEqual([[], [], [GENTLE_REMINDER], [], [expect.stringContaining('- consecutive_calls: 5')]])
      expect(observed).toBeUndefined()
      expect(snapshot).toEqual([
        expect.objectContaining({ label: 'main', tool: 'read_file', count: 5 }),
        expect.objectContaining({ label: 'other', tool: 'grep', canonicalArguments: '{"n":[1],"q":"x"}', count: 1 }),
      ])
      expect(events.filter((e) => e.type === 'chain-reset')).toEqual([expect.objectContaining({ reason: 'prompt', previousCount: 5 })])
    } else {
      // Each failed call (5 postExecute, 1 observe) is reported, naming what the page threw;
      // nothing is counted on a guess.
      expect(faults).toHaveLength(6)
      for (const fault of faults) expect(fault).toContain(PAGE_ERROR)
      expect(settled.flatMap(reminderTexts)).toEqual([])
    }
  })

  // The extension builds its guard on the page's first call, maybe after the page replaced one.
  it.each(CORPUS)('$name: a guard built while it is replaced builds and keeps count', ({ target, key }) => {
    const { snapshot } = whileReplaced(target, key, thrower, () => callEverything(setup().api))
    expect(snapshot).toEqual(expect.arrayContaining([expect.objectContaining({ label: 'main' })]))
  })

  it('keeps every timestamp on the real clock, whatever the page did to Date', () => {
    const { api, events } = setup()
    const before = NativeDate.now()
    whileReplaced(Date, 'now', thrower, () => api.observe({ agent: {}, name: 'grep' }))
    expect(events.length).toBeGreaterThan(0)
    for (const event of events) expect(event.at).toBeGreaterThanOrEqual(before)
  })

  it('awaits the downstream plugin while Promise.prototype.then throws', async () => {
    const { api, faults } = setup()
    const agent = {}
    const theirs = { role: 'user', content: [{ type: 'text', text: 'lint: 2 warnings' }] }
    const downstream = async (): Promise<PostToolDecision> => ({ kind: 'continue', additionalContexts: [theirs] })
    const decisions = await whileReplacedAsync(Promise.prototype, 'then', thrower, async () => {
      const d1 = await api.postExecute({ agent, name: 'grep' }, {}, downstream)
      const d2 = await api.postExecute({ agent, name: 'grep' }, {}, downstream)
      const d3 = await api.postExecute({ agent, name: 'grep' }, {}, downstream)
      return [d1, d2, d3]
    })
    expect(decisions.map(reminderTexts)).toEqual([['lint: 2 warnings'], ['lint: 2 warnings'], [GENTLE_REMINDER, 'lint: 2 warnings']])
    expect(faults).toEqual([])
  })

  it('keeps the config in force when configure meets a throwing built-in, and still rejects a bad config', () => {
    const { api, faults } = setup()
    const inForce = api.config
    expect(whileReplaced(Object, 'keys', thrower, () => api.configure({ thresholds: [2] }))).toBe(inForce)
    expect(api.config).toBe(inForce)
    expect(faults).toEqual([`configure: ${PAGE_ERROR}`])
    expect(() => api.configure({ thresholds: [1] })).toThrow(GuardConfigError)
  })

  it('reports the fault even when reporting it fails', () => {
    const guard = createRepeatToolGuard()
    const api = createPageGuard(guard, 1, thrower)
    expect(whileReplaced(Object, 'keys', thrower, () => api.observe({ agent: {}, name: 'grep', arguments: { q: 1 } }))).toBeUndefined()
  })
})

describe('a page that replaces Date or JSON with working versions', () => {
  const fiveReads = async (api: PageGuard) => {
    const agent = { name: 'main' }
    const out: string[][] = []
    for (let i = 0; i < 5; i++) out.push(reminderTexts(await api.postExecute({ agent, name: 'grep', arguments: '{"q":"say \\"hi\\"","n":[1]}' })))
    return out
  }
  const AT_3_AND_5 = [[], [], [GENTLE_REMINDER], [], [expect.stringContaining('- tool: grep')]]

  it('still reminds at 3 and 5 with Date.now frozen at one value', async () => {
    const { api, events } = setup()
    expect(await whileReplacedAsync(Date, 'now', () => 42, () => fiveReads(api))).toEqual(AT_3_AND_5)
    expect(events.filter((e) => e.at === 42)).toEqual([])
  })

  it('still reminds at 3 and 5 under fake timers that replace the whole Date class', async () => {
    const { api, events } = setup()
    vi.useFakeTimers({ toFake: ['Date'], now: 0 })
    expect(Date).not.toBe(NativeDate)
    expect(await fiveReads(api)).toEqual(AT_3_AND_5)
    vi.useRealTimers()
    expect(events.filter((e) => e.at < 1_000_000)).toEqual([])
  })

  it('still reminds at 3 and 5 with a JSON polyfill that escapes differently', async () => {
    const { api, faults } = setup()
    const polyfill = {
      // A working implementation of its own: every string escapes `"` as \u0022.
      stringify: (value: unknown) => nativeJson.stringify(value)?.replaceAll('\\"', '\\u0022'),
      parse: (text: string) => nativeJson.parse(text) as unknown,
    }
    expect(await whileReplacedAsync(globalThis, 'JSON', polyfill, () => fiveReads(api))).toEqual(AT_3_AND_5)
    expect(faults).toEqual([])
  })
})

// The hooks over the page's transports, with every built-in trapped while a hooked call runs
// (builtin-traps.ts): the fakes stand for the browser's natives, the page's tool and the analysis,
// which run disarmed; the hook's own code must call none of the traps.
describe('the hooks, called while the page has trapped its built-ins', () => {
  const LLM_BODY = JSON.stringify(openaiChatBody({ system: 'You are a trapped agent.', turns: [{ prompt: 'go' }, ...repeat({ name: 'read_file', args: { path: 'a.txt' } }, 3)] }))
  const GUARDED = '{"guarded":true}'

  /** An analysis that records what the hook hands it and sends GUARDED (or, for a worker, the request with one more message). */
  function standInAnalysis(traps: Traps, rewrite: (text: string) => string = () => GUARDED) {
    const asked: { text: string; url: string; reach: string }[] = []
    const inspector: WireInspector = {
      plan: (_args, analysed, withBody) =>
        traps.outside(() => {
          asked.push({ text: analysed.text, url: traps.inside(() => analysed.url()), reach: analysed.reach })
          const body = rewrite(analysed.text)
          return { args: traps.inside(() => withBody(body)), after: () => undefined }
        }),
      failed: (args) => ({ args, after: () => undefined }),
      snapshot: () => [],
    }
    return { asked, inspector: () => inspector }
  }

  const target = (extra: Record<string, unknown>) =>
    ({ Reflect, WeakMap, Proxy, Object, Promise, URL, Request, Headers, location: { href: 'https://app.example/chat/' }, ...extra }) as unknown as Window & typeof globalThis

  it('XMLHttpRequest: open, setRequestHeader and send of an LLM request; the analysis gets it and the network its rewrite', () => {
    const traps = createTraps()
    const sent: unknown[] = []
    class FakeXhr {
      open(..._args: unknown[]) {}
      setRequestHeader(..._args: unknown[]) {}
      send(body: unknown) {
        traps.outside(() => sent.push(body))
      }
    }
    const { asked, inspector } = standInAnalysis(traps)
    expect(installXhrInterceptor({ target: target({ XMLHttpRequest: FakeXhr }), mode: () => 'guard', inspector, showAsNative: () => undefined })).toBe(true)
    const xhr = new FakeXhr()
    // Spellings the checks compare character by character, as well as the usual ones.
    traps.armedDuring(() => {
      xhr.open('Post', '/v1/chat/completions')
      xhr.setRequestHeader('CONTENT-TYPE', 'application/json; charset=UTF-8')
      xhr.setRequestHeader('X-Trace', 'on')
      xhr.send(LLM_BODY)
    })
    expect(traps.hits).toEqual([])
    expect(asked).toEqual([{ text: LLM_BODY, url: 'https://app.example/v1/chat/completions', reach: 'xhr' }])
    expect(sent).toEqual([GUARDED])
  })

  it('fetch: a JSON POST with its headers as a record, then as pairs; the analysis gets each and the network its rewrite', async () => {
    const traps = createTraps()
    const bodies: unknown[] = []
    const fakeFetch = (_input: unknown, init?: { body?: unknown }) =>
      traps.outside(() => {
        // The browser reads the init the hook hands it, through the hook's Proxy.
        bodies.push(traps.inside(() => init?.body))
        return Promise.resolve('response')
      })
    const page = target({ fetch: fakeFetch })
    const { asked, inspector } = standInAnalysis(traps)
    expect(installFetchInterceptor({ target: page, mode: () => 'guard', inspector, showAsNative: () => undefined })).toBe(true)
    const responses = traps.armedDuring(() => [
      page.fetch('/v1/chat/completions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: LLM_BODY }),
      page.fetch(new URL('https://api.example/v1/messages'), { method: 'pOsT', headers: [['Content-type', 'application/vnd.api+json']], body: LLM_BODY }),
      page.fetch('/v1/ping'),
    ])
    expect(traps.hits).toEqual([])
    expect(await Promise.all(responses)).toEqual(['response', 'response', 'response'])
    expect(asked).toEqual([
      { text: LLM_BODY, url: 'https://app.example/v1/chat/completions', reach: 'fetch' },
      { text: LLM_BODY, url: 'https://api.example/v1/messages', reach: 'fetch' },
    ])
    expect(bodies).toEqual([GUARDED, GUARDED, undefined])
  })

  it("a worker's postMessage (WebLLM): a chat request; the analysis gets it and the worker its rewrite", () => {
    const traps = createTraps()
    const posted: unknown[] = []
    class FakeWorker {
      postMessage(message: unknown) {
        traps.outside(() => posted.push(message))
      }
    }
    const request = { ...JSON.parse(LLM_BODY), model: 'm', stream: false }
    const reminder = { role: 'user', content: 'a reminder' }
    // The rewrite the wire guard would make: one message more at the end.
    const { asked, inspector } = standInAnalysis(traps, (text) => {
      const parsed = JSON.parse(text)
      return JSON.stringify({ ...parsed, messages: [...parsed.messages, reminder] })
    })
    expect(installWebllmInterceptor({ target: target({ Worker: FakeWorker }), mode: () => 'guard', inspector, showAsNative: () => undefined })).toBe(true)
    const worker = new FakeWorker()
    traps.armedDuring(() => {
      worker.postMessage({ kind: 'chatCompletionNonStreaming', uuid: 'u-1', content: { request, modelId: ['m'], chatOpts: undefined } })
      worker.postMessage('hello')
    })
    expect(traps.hits).toEqual([])
    expect(asked).toEqual([{ text: JSON.stringify(request), url: 'webllm:m', reach: 'webllm' }])
    expect(posted).toEqual([{ kind: 'chatCompletionNonStreaming', uuid: 'u-1', content: { request: { ...request, messages: [...request.messages, reminder] }, modelId: ['m'], chatOpts: undefined } }, 'hello'])
  })

  it('WebMCP: registerTool, the browser calling the tool, and executeTool; the tool runs once per call', async () => {
    const traps = createTraps()
    type Execute = (...args: unknown[]) => unknown
    // What the browser keeps of each tool, by name: a declared one (from a form) never passes registerTool.
    const kept = new Map<string, Execute>([['search', (args) => traps.outside(() => ({ content: [{ type: 'text', text: `found ${JSON.stringify(args)}` }] }))]])
    class ModelContext {
      registerTool(tool: { readonly name: string; readonly description: string; execute: Execute }) {
        traps.outside(() => kept.set(traps.inside(() => tool.name), traps.inside(() => tool.execute)))
      }
      executeTool(tool: { name: string }, args: unknown) {
        return traps.outside(() => Promise.resolve(JSON.stringify(kept.get(tool.name)!(args))))
      }
    }
    const settled: unknown[] = []
    const analysis: WebMcpInspector = {
      refused: () => traps.outside(() => undefined),
      settled: (_call, outcome) => traps.outside(() => (settled.push(outcome), outcome.ok ? outcome.value : undefined)),
      fault: () => undefined,
      snapshot: () => [],
    }
    const page = target({ ModelContext })
    expect(installWebMcpHooks({ target: page, mode: () => 'guard', inspector: () => analysis, showAsNative: () => undefined })).toBe(true)
    const context = new ModelContext()
    const runs: unknown[] = []
    const result = { content: [{ type: 'text', text: 'notes' }] }
    const executed = traps.armedDuring(() => {
      context.registerTool({ name: 'read_file', description: 'Reads a file', execute: (args: unknown) => traps.outside(() => (runs.push(args), result)) })
      // The browser's agent calls the tool it kept (the hook's wrapper); the page's own agent calls
      // the declared one through executeTool.
      const byBrowser = traps.outside(() => kept.get('read_file')!)({ path: 'a.txt' })
      const byPage = context.executeTool({ name: 'search', window: page } as { name: string }, { q: 'x' })
      return { byBrowser, byPage }
    })
    expect(traps.hits).toEqual([])
    expect(executed.byBrowser).toBe(result)
    expect(JSON.parse(await executed.byPage)).toEqual({ content: [{ type: 'text', text: 'found {"q":"x"}' }] })
    expect(runs).toEqual([{ path: 'a.txt' }])
    expect(settled).toEqual([{ ok: true, value: result }, { ok: true, value: JSON.stringify({ content: [{ type: 'text', text: 'found {"q":"x"}' }] }) }])
  })
})
