// The WebMCP hooks against a fake model context (fake-model-context.ts): what reaches the browser,
// what the page's tool sees, what the agent gets back, and what the panel is told.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { createNativeLook } from '../../../extension/src/page/native-look.ts'
import { installWebMcpHooks } from '../../../extension/src/page/webmcp/install.ts'
import { checkInspectorEvent } from '../../../extension/src/protocol/validate.ts'
import type { InspectorEvent } from '../../../extension/src/protocol/events.ts'
import { detailed, GENTLE } from '../../fixtures/wire/reminders.ts'
import { configWith, pageRealm, type PageRealm } from './fake-model-context.ts'

const ARGS = { path: 'a.txt' }
const ITEM = { type: 'text', text: 'contents of a.txt' }
const DETAILED = detailed('read_file', 5, '{"path":"a.txt"}')
const reminder = (text: string) => ({ type: 'text', text })

/** Registers `read_file`, whose execute returns what `result` makes, and counts its runs. */
async function withTool(realm: PageRealm, result: () => unknown = () => ({ content: [ITEM], extra: { kept: true } }), name = 'read_file') {
  const runs: { self: unknown; args: unknown[] }[] = []
  const tool = {
    name,
    description: 'Reads a file',
    inputSchema: { type: 'object' },
    execute(this: unknown, ...args: unknown[]) {
      runs.push({ self: this, args })
      return result()
    },
  }
  await realm.modelContext.registerTool(tool)
  return { tool, runs, execute: realm.registered.at(-1)!.execute }
}

const ofType = <T extends InspectorEvent['type']>(events: InspectorEvent[], type: T) => events.filter((e): e is Extract<InspectorEvent, { type: T }> => e.type === type)

describe('installed where the browser defines the methods, looking native', () => {
  test('a realm without ModelContext, or whose ModelContext has no registerTool, is left alone', () => {
    const realm = pageRealm({ withModelContext: false })
    expect('ModelContext' in realm.target).toBe(false)
    expect(realm.target.Function.prototype.toString).toBe(vm.runInContext('Function.prototype.toString', realm.context))
    const context = vm.createContext({})
    const target = vm.runInContext('globalThis.ModelContext = class ModelContext { getTools() {} }; globalThis', context)
    const before = target.Function.prototype.toString
    expect(installWebMcpHooks({ target, mode: () => 'guard', inspector: () => { throw new Error('never asked') }, showAsNative: createNativeLook(target) })).toBe(false)
    expect(target.Function.prototype.toString).toBe(before)
  })

  test('a ModelContext without executeTool gets registerTool hooked alone', async () => {
    const context = vm.createContext({})
    const target = vm.runInContext('globalThis.ModelContext = class ModelContext { registerTool(tool) { globalThis.kept = tool.execute } }; globalThis', context)
    expect(installWebMcpHooks({ target, mode: () => 'off', inspector: () => { throw new Error('never asked') }, showAsNative: createNativeLook(target) })).toBe(true)
    const execute = () => 'ran'
    vm.runInContext('new ModelContext()', context).registerTool({ name: 't', execute })
    expect(target.kept).not.toBe(execute)
    expect(target.kept()).toBe('ran')
    expect(target.ModelContext.prototype.executeTool).toBeUndefined()
  })

  test('registerTool and executeTool are Proxies on the prototype that print, name and count as the natives', () => {
    const realm = pageRealm()
    const prototype = (realm.target as unknown as { ModelContext: { prototype: Record<string, (...a: unknown[]) => unknown> } }).ModelContext.prototype
    const toString = realm.target.Function.prototype.toString
    for (const key of ['registerTool', 'executeTool']) {
      const method = prototype[key]!
      expect(toString.call(method)).toMatch(new RegExp(`^${key}\\((tool, options|tool, args)\\) \\{`))
      expect(vm.runInContext(`String(ModelContext.prototype.${key})`, realm.context)).toBe(toString.call(method))
      expect(method.name).toBe(key)
      expect(method.length).toBe(2)
      expect(Object.getOwnPropertyDescriptor(prototype, key)).toMatchObject({ writable: true, enumerable: false, configurable: true })
      expect(Object.hasOwn(realm.modelContext, key)).toBe(false)
    }
  })
})

describe('the tool the browser keeps', () => {
  test('is a stand-in whose execute is wrapped; the page\'s object and every other member are the page\'s', async () => {
    const realm = pageRealm()
    const { tool, execute } = await withTool(realm)
    const before = { ...tool }
    expect(execute).not.toBe(tool.execute)
    expect(realm.registered[0]).toMatchObject({ name: 'read_file', description: 'Reads a file' })
    expect({ ...tool }).toEqual(before)
    expect(tool.execute).toBe(before.execute)
  })

  test('a class instance with private-field getters, and a frozen tool, register as they would', async () => {
    const realm = pageRealm()
    class Tool {
      readonly #name = 'classy'
      get name() {
        return this.#name
      }
      get title() {
        return `the ${this.#name} tool`
      }
      description = 'a class'
      execute() {
        return { content: [] }
      }
    }
    await realm.modelContext.registerTool(new Tool())
    await realm.modelContext.registerTool(Object.freeze({ name: 'frozen', description: 'frozen', execute: () => ({ content: [] }) }))
    expect(realm.registered.map((t) => [t.name, t.title])).toEqual([
      ['classy', 'the classy tool'],
      ['frozen', undefined],
    ])
    expect(await realm.call('frozen')).toBe('{"content":[]}')
  })

  test('the execute getter is read once, as the browser reads it; a tool the browser refuses is refused as it would be', async () => {
    const realm = pageRealm()
    let reads = 0
    await realm.modelContext.registerTool({
      name: 'lazy',
      description: 'd',
      get execute() {
        reads += 1
        return () => 'L'
      },
    })
    expect(reads).toBe(1)
    expect(() => realm.modelContext.registerTool({ name: 'bad', description: 'd', execute: 5 })).toThrow("Failed to read the 'execute' property")
    expect(() => realm.modelContext.registerTool(null)).toThrow(/Cannot read properties of null/)
    const registerTool = (realm.target as unknown as { ModelContext: { prototype: { registerTool: (t: unknown) => unknown } } }).ModelContext.prototype.registerTool
    expect(() => registerTool.call({}, { name: 'x', description: 'd', execute() {} })).toThrow('Illegal invocation')
    expect(realm.asked()).toBe(0)
  })
})

describe('a call of a wrapped tool', () => {
  test('gets the browser\'s this and every argument, and returns a sync result synchronously', async () => {
    const realm = pageRealm()
    const { runs, execute } = await withTool(realm)
    const self = { any: 'this' }
    const client = { signal: undefined }
    const result = execute.call(self, ARGS, client)
    expect(result).toEqual({ content: [ITEM], extra: { kept: true } })
    expect(runs).toEqual([{ self, args: [ARGS, client] }])
  })

  test('a thrown error is the same object, thrown synchronously; a rejection is the same reason', async () => {
    const realm = pageRealm()
    const error = new Error('disk on fire')
    const { execute } = await withTool(realm, () => {
      throw error
    })
    let caught: unknown
    try {
      execute(ARGS)
    } catch (thrown) {
      caught = thrown
    }
    expect(caught).toBe(error)
    const rejecting = pageRealm()
    const reason = { not: 'an error' }
    const { execute: asyncExecute } = await withTool(rejecting, () => Promise.reject(reason))
    await expect(asyncExecute(ARGS)).rejects.toBe(reason)
    expect(ofType(realm.events, 'call').map((e) => e.isError)).toEqual([true])
    expect(ofType(rejecting.events, 'call').map((e) => e.isError)).toEqual([true])
  })

  test('an async result stays async; a thenable is followed once', async () => {
    const realm = pageRealm()
    const { execute } = await withTool(realm, () => Promise.resolve({ content: [ITEM] }))
    const pending = execute(ARGS)
    expect(pending).toBeInstanceOf(realm.target.Promise)
    expect(await pending).toEqual({ content: [ITEM] })
    let thens = 0
    const thenable = {
      then(ok: (v: unknown) => void) {
        thens += 1
        ok({ content: [ITEM] })
      },
    }
    const second = pageRealm()
    const { execute: thenableExecute } = await withTool(second, () => thenable)
    expect(await (thenableExecute(ARGS) as Promise<unknown>)).toEqual({ content: [ITEM] })
    expect(thens).toBe(1)
  })

  test('a promise is followed as the browser follows it: a Promise.prototype.then the page replaced since is not called', async () => {
    const realm = pageRealm()
    const { execute } = await withTool(realm, () => realm.target.Promise.resolve({ content: [ITEM] }))
    const prototype = realm.target.Promise.prototype
    const then = prototype.then
    let pending: unknown
    prototype.then = () => {
      throw new Error('replaced by the page')
    }
    try {
      pending = execute(ARGS)
    } finally {
      prototype.then = then
    }
    expect(await pending).toEqual({ content: [ITEM] })
    expect(ofType(realm.events, 'call').map((e) => e.isError)).toEqual([false])
  })

  test('a then getter that throws leaves the value to the browser, as it came', async () => {
    const realm = pageRealm()
    const odd = {
      get then() {
        throw new Error('no then')
      },
    }
    const { execute } = await withTool(realm, () => odd)
    expect(execute(ARGS)).toBe(odd)
  })
})

describe('reminders in the results', () => {
  test('the gentle reminder after the third call, the detailed after the fifth: new result objects, the page\'s untouched', async () => {
    const realm = pageRealm()
    const made: unknown[] = []
    const { execute } = await withTool(realm, () => {
      const result = { content: [ITEM], extra: { kept: true } }
      made.push(result)
      return result
    })
    const results = Array.from({ length: 6 }, () => execute(ARGS) as { content: unknown[] })
    expect(results.map((r) => r.content)).toEqual([[ITEM], [ITEM], [ITEM, reminder(GENTLE)], [ITEM], [ITEM, reminder(DETAILED)], [ITEM]])
    expect(results.map((r, n) => r === made[n])).toEqual([true, true, false, true, false, true])
    expect(results[2]).toEqual({ content: [ITEM, reminder(GENTLE)], extra: { kept: true } })
    expect(made.every((r) => JSON.stringify(r) === JSON.stringify({ content: [ITEM], extra: { kept: true } }))).toBe(true)
    expect(results[2]!.content[0]).toBe((made[2] as { content: unknown[] }).content[0])
    expect(ofType(realm.events, 'reminder').map((e) => [e.agentId, e.seq, e.level, e.text, e.placement, e.withheld])).toEqual([
      ['webmcp:1', 3, 'gentle', GENTLE, 'content[1]', undefined],
      ['webmcp:1', 5, 'detailed', DETAILED, 'content[1]', undefined],
    ])
  })

  test('through executeTool the agent reads them in the JSON text', async () => {
    const realm = pageRealm()
    await withTool(realm)
    const texts: string[] = []
    for (let i = 0; i < 3; i++) texts.push(await realm.call('read_file', ARGS))
    expect(texts[0]).toBe('{"content":[{"type":"text","text":"contents of a.txt"}],"extra":{"kept":true}}')
    expect(JSON.parse(texts[2]!)).toEqual({ content: [ITEM, reminder(GENTLE)], extra: { kept: true } })
    expect(ofType(realm.events, 'call')).toHaveLength(3)
  })

  test('a result without a content list (a string, an object without content, one with toJSON, an error) goes back as it came; the panel says why', async () => {
    for (const make of [() => 'plain text', () => ({ text: 'no list' }), () => ({ content: [ITEM], toJSON: () => 'mine' }), () => ({ content: 'not a list' })]) {
      const realm = pageRealm()
      const results: unknown[] = []
      const made: unknown[] = []
      const { execute } = await withTool(realm, () => {
        const value = make()
        made.push(value)
        return value
      })
      for (let i = 0; i < 3; i++) results.push(execute(ARGS))
      expect(results).toEqual(made)
      results.forEach((r, n) => expect(r).toBe(made[n]))
      expect(ofType(realm.events, 'reminder').map((e) => e.withheld)).toEqual(['no-content'])
    }
  })

  test('resultAware: a call whose result changed starts a new run', async () => {
    const realm = pageRealm()
    realm.config = configWith({ resultAware: true })
    let n = 0
    const { execute } = await withTool(realm, () => ({ content: [{ type: 'text', text: `poll ${(n += 1) < 3 ? 'waiting' : 'done'}` }] }))
    for (let i = 0; i < 4; i++) execute(ARGS)
    expect(ofType(realm.events, 'call').map((e) => [e.count, e.result])).toEqual([
      [1, expect.stringContaining('waiting')],
      [2, expect.stringContaining('waiting')],
      [1, expect.stringContaining('done')],
      [2, expect.stringContaining('done')],
    ])
    expect(ofType(realm.events, 'reset').map((e) => e.reason)).toEqual(['result-changed'])
  })

  test('an MCP error result (isError: true) is an error call', async () => {
    const realm = pageRealm()
    const { execute } = await withTool(realm, () => ({ content: [ITEM], isError: true }))
    execute(ARGS)
    expect(ofType(realm.events, 'call').map((e) => e.isError)).toEqual([true])
  })
})

describe('the origin\'s setting', () => {
  test('observe: the reminders are shown where they would go, the results are the tool\'s own', async () => {
    const realm = pageRealm()
    realm.mode = 'observe'
    const made: unknown[] = []
    const { execute } = await withTool(realm, () => {
      const value = { content: [ITEM] }
      made.push(value)
      return value
    })
    const results = Array.from({ length: 5 }, () => execute(ARGS))
    results.forEach((r, n) => expect(r).toBe(made[n]))
    expect(ofType(realm.events, 'reminder').map((e) => [e.level, e.placement, e.withheld])).toEqual([
      ['gentle', 'content[1]', 'observe'],
      ['detailed', 'content[1]', 'observe'],
    ])
  })

  test('off: the tool runs as registered, nothing is analysed, nothing reported; the setting is read on every call', async () => {
    const realm = pageRealm()
    realm.mode = 'off'
    const made: unknown[] = []
    const { execute, runs } = await withTool(realm, () => {
      const value = { content: [ITEM] }
      made.push(value)
      return value
    })
    const results = Array.from({ length: 5 }, () => execute(ARGS))
    results.forEach((r, n) => expect(r).toBe(made[n]))
    expect(await realm.call('read_file', ARGS)).toBe('{"content":[{"type":"text","text":"contents of a.txt"}]}')
    expect(runs).toHaveLength(6)
    expect(realm.asked()).toBe(0)
    expect(realm.events).toEqual([])
    realm.mode = 'guard'
    execute(ARGS)
    expect(ofType(realm.events, 'call').map((e) => e.count)).toEqual([1])
  })
})

describe('executeTool: every call counted once', () => {
  test('a declarative tool (not registered through registerTool) is counted by executeTool, with its reminder in the JSON text', async () => {
    const realm = pageRealm()
    let runs = 0
    realm.modelContext.declare('search', () => ((runs += 1), { content: [ITEM] }))
    const texts: string[] = []
    for (let i = 0; i < 3; i++) texts.push(await realm.call('search', { q: 'x' }))
    expect(runs).toBe(3)
    expect(texts.map((t) => (JSON.parse(t) as { content: unknown[] }).content.length)).toEqual([1, 1, 2])
    expect(ofType(realm.events, 'call').map((e) => [e.tool, e.args, e.count])).toEqual([
      ['search', '{"q":"x"}', 1],
      ['search', '{"q":"x"}', 2],
      ['search', '{"q":"x"}', 3],
    ])
  })

  test('a wrapped tool is counted by its wrapper only; a tool of another window is not counted here', async () => {
    const realm = pageRealm()
    await withTool(realm)
    await realm.call('read_file', ARGS)
    await realm.call('read_file', ARGS)
    expect(ofType(realm.events, 'call').map((e) => e.count)).toEqual([1, 2])
    realm.modelContext.declare('elsewhere', () => ({ content: [] }))
    await realm.modelContext.executeTool({ name: 'elsewhere', description: 'd', window: {} }, {})
    expect(ofType(realm.events, 'call')).toHaveLength(2)
  })

  test('a name whose tool was unregistered by its signal is counted by executeTool again; a duplicate name keeps the first tool wrapped', async () => {
    const realm = pageRealm()
    const controller = new AbortController()
    await realm.modelContext.registerTool({ name: 'temp', description: 'd', execute: () => ({ content: [] }) }, { signal: controller.signal })
    await expect(realm.modelContext.registerTool({ name: 'temp', description: 'again', execute: () => ({ content: [] }) })).rejects.toThrow('Duplicate tool name')
    await realm.call('temp')
    expect(ofType(realm.events, 'call')).toHaveLength(1)
    controller.abort()
    realm.modelContext.declare('temp', () => ({ content: [] }))
    await realm.call('temp')
    expect(ofType(realm.events, 'call').map((e) => e.count)).toEqual([1, 2])
  })

  test('a call the browser refuses at once (a bad this) is not counted and throws as it would', async () => {
    const realm = pageRealm()
    realm.modelContext.declare('search', () => ({ content: [] }))
    const executeTool = (realm.target as unknown as { ModelContext: { prototype: { executeTool: (t: unknown, a: unknown) => unknown } } }).ModelContext.prototype.executeTool
    expect(() => executeTool.call({}, { name: 'search', window: realm.target }, {})).toThrow('Illegal invocation')
    expect(ofType(realm.events, 'call')).toEqual([])
  })

  test('a declarative tool that fails rejects with the browser\'s own error, and is an error call', async () => {
    const realm = pageRealm()
    const error = new Error('form gone')
    realm.modelContext.declare('search', () => {
      throw error
    })
    await expect(realm.call('search')).rejects.toBe(error)
    expect(ofType(realm.events, 'call').map((e) => e.isError)).toEqual([true])
  })
})

describe('stopAfter', () => {
  test('guard: the call past the limit does not run; the agent reads the feedback as an error result; the run counts it as denied', async () => {
    const realm = pageRealm()
    realm.config = configWith({ stopAfter: 3 })
    const { execute, runs } = await withTool(realm)
    const results = Array.from({ length: 4 }, () => execute(ARGS))
    expect(runs).toHaveLength(3)
    const [blocked] = ofType(realm.events, 'blocked')
    expect(blocked).toMatchObject({ agentId: 'webmcp:1', tool: 'read_file', count: 3 })
    expect(blocked!.wouldBlock).toBeUndefined()
    expect(results[3]).toEqual({ content: [{ type: 'text', text: blocked!.feedback }], isError: true })
    expect(ofType(realm.events, 'call').map((e) => [e.denied, e.count])).toEqual([
      [false, 1],
      [false, 2],
      [false, 3],
      [true, 4],
    ])
    // Through executeTool, the agent gets the same answer as JSON text; a reminder due on a
    // refused call goes with its feedback.
    const text = await realm.call('read_file', ARGS)
    const second = ofType(realm.events, 'blocked')[1]!
    expect(second.feedback).toContain('already called 4 times')
    expect(JSON.parse(text)).toEqual({ content: [{ type: 'text', text: second.feedback }, reminder(detailed('read_file', 5, '{"path":"a.txt"}'))], isError: true })
    expect(runs).toHaveLength(3)
  })

  test('observe: the call runs, and the panel hears it would have been blocked', async () => {
    const realm = pageRealm()
    realm.mode = 'observe'
    realm.config = configWith({ stopAfter: 3 })
    const { execute, runs } = await withTool(realm)
    for (let i = 0; i < 4; i++) execute(ARGS)
    expect(runs).toHaveLength(4)
    expect(ofType(realm.events, 'blocked').map((e) => [e.count, e.wouldBlock])).toEqual([[3, true]])
  })
})

describe('faults never reach the page', () => {
  test('without its analysis a call goes on exactly as the tool made it', async () => {
    const realm = pageRealm()
    realm.broken = 'inspector'
    const made: unknown[] = []
    const { execute } = await withTool(realm, () => {
      const value = { content: [ITEM] }
      made.push(value)
      return value
    })
    for (let i = 0; i < 3; i++) expect(execute(ARGS)).toBe(made[i])
    expect(realm.events).toEqual([])
  })

  test('a config that cannot be read: the call goes on as it came, and the panel gets a fault', async () => {
    const realm = pageRealm()
    const { execute } = await withTool(realm)
    execute(ARGS)
    realm.broken = 'config'
    const made = { content: [ITEM] }
    const second = await withTool(realm, () => made, 'other_tool')
    expect(second.execute(ARGS)).toBe(made)
    expect(ofType(realm.events, 'fault').map((e) => e.message)).toEqual([
      'WebMCP: the tool call went on unchanged: no config',
      'WebMCP: the tool call went on unchanged: no config',
    ])
    // Read again: the calls are counted from where they were.
    realm.broken = undefined
    execute(ARGS)
    expect(ofType(realm.events, 'call').map((e) => [e.tool, e.count])).toEqual([
      ['read_file', 1],
      ['read_file', 2],
    ])
  })
})

describe('what the panel gets', () => {
  test('one agent for the frame, of kind webmcp, reached through WebMCP; every event valid; the snapshot after a reconnect', async () => {
    const realm = pageRealm()
    expect(realm.snapshot()).toEqual([])
    const { execute } = await withTool(realm)
    for (let i = 0; i < 4; i++) execute(ARGS)
    expect(ofType(realm.events, 'agent')).toEqual([{ type: 'agent', at: expect.any(Number), agent: { id: 'webmcp:1', kind: 'webmcp', label: 'WebMCP tools', reach: 'webmcp' } }])
    for (const event of realm.events) expect(checkInspectorEvent(event)).toMatchObject({ ok: true })
    expect(realm.events.some((e) => e.type === 'config')).toBe(false)
    expect(realm.snapshot()).toEqual([
      { id: 'webmcp:1', kind: 'webmcp', label: 'WebMCP tools', reach: 'webmcp', tool: 'read_file', args: '{"path":"a.txt"}', count: 4, nextThreshold: 5 },
    ])
  })

  test('a config change from the panel applies to the next call', async () => {
    const realm = pageRealm()
    const { execute } = await withTool(realm)
    execute(ARGS)
    realm.config = configWith({ thresholds: [2] })
    const second = execute(ARGS) as { content: unknown[] }
    expect(second.content).toEqual([ITEM, reminder(GENTLE)])
  })
})
