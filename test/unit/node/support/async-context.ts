// The context manager an app that uses OpenTelemetry in Node registers (as
// `@opentelemetry/context-async-hooks` does it), over AsyncLocalStorage: the active span follows the
// app's calls across awaits.
import { AsyncLocalStorage } from 'node:async_hooks'
import { type Context, type ContextManager, ROOT_CONTEXT } from '@opentelemetry/api'

export class AsyncLocalContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>()

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(context, () => fn.call(thisArg, ...args))
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target
    const run = (...args: unknown[]) => this.with(context, target as (...a: unknown[]) => unknown, undefined, ...args)
    return run as T
  }

  enable(): this {
    return this
  }

  disable(): this {
    this.storage.disable()
    return this
  }
}
