// The comparison both browsers' hook-error tests make: an error a hooked native throws, read in a
// page with the extension and in one without it (test/fixtures/extension/hook-errors.js), must be
// the same error, caught or not.
import { expect } from 'vitest'

export const HOOK_ERROR_NAMES = ['xhrOpenWithABadMethod', 'xhrHeaderBeforeOpen', 'xhrSendBeforeOpen', 'xhrLlmRequestThatCannotLoad', 'workerGivenASymbol']

/** What the fixture keeps on `window.hookErrors`. */
interface HookErrors {
  names: string[]
  caught(name: string): string
  uncaught(name: string): Promise<{ message: string; stack: string }>
}
type HookErrorsWindow = { hookErrors: HookErrors }

/** A page of either driver: Playwright's and Puppeteer's both run a function in the page with one argument. */
export interface EvaluatingPage {
  evaluate<R>(run: (name: string) => R | Promise<R>, name: string): Promise<R>
}

/** The error cases the fixture page offers. */
export const hookErrorNames = (page: EvaluatingPage) => page.evaluate(() => (window as unknown as HookErrorsWindow).hookErrors.names, '')

/** The stack of the error `name` throws, caught by the page: the same with the extension as without it. */
export async function caughtAsWithout([withExtension, without]: readonly [EvaluatingPage, EvaluatingPage], name: string): Promise<string> {
  const read = (page: EvaluatingPage) => page.evaluate((n) => (window as unknown as HookErrorsWindow).hookErrors.caught(n), name)
  const [stack, plain] = await Promise.all([read(withExtension), read(without)])
  expect(stack).toBe(plain)
  return stack
}

/** The message and stack window.onerror gets for the error `name` throws uncaught: the same with the extension as without it. */
export async function uncaughtAsWithout([withExtension, without]: readonly [EvaluatingPage, EvaluatingPage], name: string): Promise<{ message: string; stack: string }> {
  const read = async (page: EvaluatingPage) => {
    const { message, stack } = await page.evaluate((n) => (window as unknown as HookErrorsWindow).hookErrors.uncaught(n), name)
    return { message, stack }
  }
  const [error, plain] = await Promise.all([read(withExtension), read(without)])
  expect(error).toEqual(plain)
  return error
}
