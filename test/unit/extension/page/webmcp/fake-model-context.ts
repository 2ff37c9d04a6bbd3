// A page realm with a fake WebMCP model context, as Chromium's behaves: `registerTool` reads the
// tool's members once (its `execute` kept for later), refuses a name in use with a rejected promise,
// drops a tool whose signal aborts; `executeTool(tool, args)` finds the tool by name, calls its
// `execute(args, client)` later, with `this` undefined, and resolves to the JSON text of what it
// returned (rejects when it threw). Declarative tools (`declare`) are the browser's own: no
// `registerTool` sees them. The hooks are installed with the real analysis behind them.
import vm from 'node:vm'
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig, type GuardConfigInput } from '../../../../../engine/index.ts'
import { installWebMcpHooks } from '../../../../../extension/src/page/webmcp/install.ts'
import { createWebMcpAnalysis, type WebMcpAnalysis } from '../../../../../extension/src/page/webmcp/analysis.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'

const FAKE = `
class ModelContext {
  #tools = new Map()
  registerTool(tool, options) {
    if (!(this instanceof ModelContext)) throw new TypeError('Illegal invocation')
    const execute = tool.execute
    if (typeof execute !== 'function') throw new TypeError("Failed to read the 'execute' property")
    const entry = { name: tool.name, description: tool.description, title: tool.title, execute }
    if (this.#tools.has(entry.name)) return Promise.reject(new Error('Duplicate tool name'))
    this.#tools.set(entry.name, entry)
    options?.signal?.addEventListener('abort', () => this.#tools.delete(entry.name))
    registered.push(entry)
    return Promise.resolve(undefined)
  }
  declare(name, execute) {
    this.#tools.set(name, { name, description: 'declared', execute })
  }
  getTools() {
    return Promise.resolve([...this.#tools.values()].map(({ name, description }) => ({ name, description, window: globalThis })))
  }
  executeTool(tool, args) {
    if (!(this instanceof ModelContext)) throw new TypeError('Illegal invocation')
    const entry = this.#tools.get(tool.name)
    if (!entry) return Promise.reject(new Error('Tool not found'))
    return Promise.resolve().then(() => entry.execute.call(undefined, args, { signal: undefined })).then((value) => JSON.stringify(value))
  }
}
const registered = []
globalThis.ModelContext = ModelContext
globalThis.registered = registered
globalThis.modelContext = new ModelContext()
`

export interface RegisteredEntry {
  readonly name: string
  readonly description: string
  readonly title: unknown
  readonly execute: (...args: unknown[]) => unknown
}

export interface FakeModelContext {
  registerTool(tool: unknown, options?: { signal?: AbortSignal }): Promise<void>
  executeTool(tool: unknown, args?: unknown): Promise<string>
  getTools(): Promise<{ name: string; description: string; window: unknown }[]>
  declare(name: string, execute: (args: unknown) => unknown): void
}

export interface PageRealm {
  readonly target: Window & typeof globalThis
  readonly context: vm.Context
  readonly modelContext: FakeModelContext
  /** What the browser kept of each tool registered, in order. */
  readonly registered: RegisteredEntry[]
  readonly events: PanelEvent[]
  /** How many times the analysis was asked for. */
  readonly asked: () => number
  mode: ZeroCodeMode
  config: GuardConfig
  /** Makes the analysis, or the config read, throw. */
  broken: 'analysis' | 'config' | undefined
  readonly snapshot: () => ReturnType<WebMcpAnalysis['snapshot']>
  /** Calls a tool the way the browser's agent does, by name. */
  call(name: string, args?: unknown): Promise<string>
}

export const configWith = (input: GuardConfigInput): GuardConfig => resolveConfig(input, RECOMMENDED_CONFIG)

/** A realm with the fake model context (or none, with `withModelContext: false`) and the hooks installed. */
export function pageRealm({ withModelContext = true }: { withModelContext?: boolean } = {}): PageRealm {
  const context = vm.createContext({ AbortController, AbortSignal })
  if (withModelContext) vm.runInContext(FAKE, context)
  const target = vm.runInContext('globalThis', context) as Window & typeof globalThis
  let asked = 0
  let analysis: WebMcpAnalysis | undefined
  const realm: PageRealm = {
    target,
    context,
    modelContext: (target as unknown as { modelContext: FakeModelContext }).modelContext,
    registered: (target as unknown as { registered: RegisteredEntry[] }).registered,
    events: [],
    asked: () => asked,
    mode: 'guard',
    config: RECOMMENDED_CONFIG,
    broken: undefined,
    snapshot: () => analysis?.snapshot() ?? [],
    async call(name, args = {}) {
      const tool = (await realm.modelContext.getTools()).find((t) => t.name === name)
      return realm.modelContext.executeTool(tool, args)
    },
  }
  installWebMcpHooks({
    target,
    showAsNative: createNativeLook(target),
    mode: () => realm.mode,
    analysis: () => {
      asked += 1
      if (realm.broken === 'analysis') throw new Error('no analysis')
      return (analysis ??= createWebMcpAnalysis({
        config: () => {
          if (realm.broken === 'config') throw new Error('no config')
          return realm.config
        },
        emit: (event) => realm.events.push(event),
        now: () => 1,
      }))
    },
  })
  return realm
}
