// WebMCP (docs/zero-code.md, "WebMCP tools"): a page exposes tools to the browser's agent with `registerTool` on its model
// context (`document.modelContext`, and `navigator.modelContext` where the browser has it: both are
// `ModelContext` objects), and a page's own agent may call them with `executeTool`. Both methods are
// hooked where the browser defines them, on `ModelContext.prototype`, as Proxies that print as the
// natives. A tool registered through the hook reaches the browser with its `execute` wrapped
// (tool-call.ts), the page's tool object itself untouched; `executeTool` counts the calls of the
// frame's other tools (declarative ones, from forms), which no wrapper sees. Installed at
// document_start; nothing here builds the analysis, which the first call of a tool asks for. Where
// the browser has no `ModelContext`, nothing is installed.
import { callFunction, maps, objectCreate } from '../../../../engine/intrinsics.ts'
import { argument } from '../hook-arguments.ts'
import type { ShowAsNative } from '../native-look.ts'
import { callTool, modeOf, type ToolCallHooks } from './tool-call.ts'

interface WebMcpHooksOptions extends Omit<ToolCallHooks, 'Promise' | 'then'> {
  /** The page's global object. */
  readonly target: Window & typeof globalThis
  readonly showAsNative: ShowAsNative
}

type Method = (this: unknown, ...args: unknown[]) => unknown

// Captured at document_start, as every built-in the hooks call: a tool is registered any time later.
const signalMap = maps<string, AbortSignal | undefined>()
const { get: reflectGet } = Reflect
const NativeProxy = Proxy

/** Hooks `registerTool` and `executeTool`; false when the browser has no WebMCP. */
export function installWebMcpHooks({ target, showAsNative, ...rest }: WebMcpHooksOptions): boolean {
  const ModelContext = (target as unknown as { ModelContext?: unknown }).ModelContext
  const prototype = typeof ModelContext === 'function' ? (ModelContext.prototype as Record<string, unknown> | undefined) : undefined
  if (!prototype || typeof prototype.registerTool !== 'function') return false
  const hooks: ToolCallHooks = { ...rest, Promise: target.Promise, then: target.Promise.prototype.then }
  const abortedOf = Object.getOwnPropertyDescriptor(target.AbortSignal?.prototype ?? {}, 'aborted')?.get

  /**
   * The tools this frame registered through the hook, by name, with the signal that unregisters
   * each: their calls are counted by their wrapper, so `executeTool` leaves them alone.
   */
  const wrapped = new Map<string, AbortSignal | undefined>()
  function isWrapped(name: string): boolean {
    if (!signalMap.has(wrapped, name)) return false
    const signal = signalMap.get(wrapped, name)
    try {
      return !(signal && abortedOf && callFunction(abortedOf, signal, []))
    } catch {
      return true
    }
  }

  /** The page's tool with its `execute` wrapped, as a Proxy that reads everything else from the tool itself. */
  function standIn(tool: unknown): { readonly stand: object; readonly name: unknown } | undefined {
    if ((typeof tool !== 'object' || tool === null) && typeof tool !== 'function') return undefined
    // Read once, as the browser reads it; a tool without one is the browser's to refuse.
    const execute = (tool as { execute?: unknown }).execute
    if (typeof execute !== 'function') return undefined
    const name = (tool as { name?: unknown }).name
    function guardedExecute(this: unknown, ...args: unknown[]): unknown {
      const mode = modeOf(hooks)
      if (mode === 'off' || typeof name !== 'string') return callFunction(execute as Method, this, args)
      return callTool(hooks, mode, { name, args: argument(args, 0) }, 'value', () => callFunction(execute as Method, this, args))
    }
    // Every other member is read from the tool itself (its getters see the tool, private fields
    // included); the Proxy's target is an empty heir, so even a frozen tool can stand behind it.
    const stand = new NativeProxy(objectCreate(tool) as object, { get: (_heir, key) => (key === 'execute' ? guardedExecute : reflectGet(tool, key)) })
    return { stand, name }
  }

  function hook(key: string, apply: (native: Method, self: unknown, args: unknown[]) => unknown): void {
    const native = prototype![key]
    if (typeof native !== 'function') return
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key)
    const proxy = new Proxy(native as Method, { apply })
    Object.defineProperty(prototype, key, { ...descriptor, value: proxy })
    showAsNative(proxy, native)
  }

  hook('registerTool', (native, self, args) => {
    let tool: ReturnType<typeof standIn>
    let signal: AbortSignal | undefined
    try {
      tool = standIn(argument(args, 0))
      const options = argument(args, 1)
      signal = typeof options === 'object' && options !== null ? ((options as { signal?: AbortSignal }).signal ?? undefined) : undefined
    } catch {
      tool = undefined
    }
    if (!tool) return callFunction(native, self, args)
    args[0] = tool.stand
    const registered = callFunction(native, self, args)
    // Registered (or refused later, for a name in use: the first tool of that name stays the one wrapped).
    if (typeof tool.name === 'string' && !isWrapped(tool.name)) signalMap.set(wrapped, tool.name, signal)
    return registered
  })

  hook('executeTool', (native, self, args) => {
    const mode = modeOf(hooks)
    let name: string | undefined
    try {
      const tool = argument(args, 0) as { name?: unknown; window?: unknown } | null | undefined
      // Another frame's tools are that frame's to count; this frame's wrapped tools, their wrapper's.
      const candidate = mode === 'off' || typeof tool !== 'object' || tool === null || tool.window !== target ? undefined : tool.name
      name = typeof candidate === 'string' && !isWrapped(candidate) ? candidate : undefined
    } catch {
      name = undefined
    }
    if (name === undefined || mode === 'off') return callFunction(native, self, args)
    return callTool(hooks, mode, { name, args: argument(args, 1) }, 'json', () => callFunction(native, self, args))
  })
  return true
}
