// A call of a tool the WebMCP hooks wrapped, and executeTool counting every call once.
import { describe, expect, test } from 'vitest'
import { pageRealm } from './fake-model-context.ts'
import { ARGS, ITEM, withTool, ofType } from './read-file-tool.ts'

describe('a call of a wrapped tool', () => {
  test("gets the browser's this and every argument, and returns a sync result synchronously", async () => {
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

  test("a declarative tool that fails rejects with the browser's own error, and is an error call", async () => {
    const realm = pageRealm()
    const error = new Error('form gone')
    realm.modelContext.declare('search', () => {
      throw error
    })
    await expect(realm.call('search')).rejects.toBe(error)
    expect(ofType(realm.events, 'call').map((e) => e.isError)).toEqual([true])
  })
})
