// The WebMCP hooks installed where the browser defines the methods, looking native, and the tool the browser keeps.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { installWebMcpHooks } from '../../../../../extension/src/page/webmcp/install.ts'
import { pageRealm } from './fake-model-context.ts'
import { withTool } from './read-file-tool.ts'

describe('installed where the browser defines the methods, looking native', () => {
  test('a realm without ModelContext, or whose ModelContext has no registerTool, is left alone', () => {
    const realm = pageRealm({ withModelContext: false })
    expect('ModelContext' in realm.target).toBe(false)
    expect(realm.target.Function.prototype.toString).toBe(vm.runInContext('Function.prototype.toString', realm.context))
    const context = vm.createContext({})
    const target = vm.runInContext('globalThis.ModelContext = class ModelContext { getTools() {} }; globalThis', context)
    const before = target.Function.prototype.toString
    expect(
      installWebMcpHooks({
        target,
        mode: () => 'guard',
        analysis: () => {
          throw new Error('never asked')
        },
        showAsNative: createNativeLook(target),
      }),
    ).toBe(false)
    expect(target.Function.prototype.toString).toBe(before)
  })

  test('a ModelContext without executeTool gets registerTool hooked alone', async () => {
    const context = vm.createContext({})
    const target = vm.runInContext('globalThis.ModelContext = class ModelContext { registerTool(tool) { globalThis.kept = tool.execute } }; globalThis', context)
    expect(
      installWebMcpHooks({
        target,
        mode: () => 'off',
        analysis: () => {
          throw new Error('never asked')
        },
        showAsNative: createNativeLook(target),
      }),
    ).toBe(true)
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
  test("is a stand-in whose execute is wrapped; the page's object and every other member are the page's", async () => {
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
