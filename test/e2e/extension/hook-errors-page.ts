// What the hook-errors fixture page (test/fixtures/extension/hook-errors.js) offers, and the reads
// the Chromium and the Firefox tests make of it. Each read runs inside the page (handed to
// `page.evaluate` of Playwright or Puppeteer), so it uses nothing from outside itself.

/** The page's calls that make a hooked native throw, in the order the page lists them. */
export const HOOK_ERROR_NAMES = ['xhrOpenWithABadMethod', 'xhrHeaderBeforeOpen', 'xhrSendBeforeOpen', 'xhrLlmRequestThatCannotLoad', 'workerGivenASymbol']

interface HookErrors {
  names: string[]
  caught(name: string): string
  uncaught(name: string): Promise<{ message: string; stack: string }>
}

/** In the page: the names of the calls it offers. */
export const hookErrorNames = (): string[] => (window as unknown as { hookErrors: HookErrors }).hookErrors.names

/** In the page: the stack of the error the call `name` throws, caught by the page. */
export const caughtStack = (name: string): string => (window as unknown as { hookErrors: HookErrors }).hookErrors.caught(name)

/** In the page: the message and the stack window.onerror gets of the error the call `name` throws, uncaught. */
export const uncaughtError = async (name: string): Promise<{ message: string; stack: string }> => {
  const { message, stack } = await (window as unknown as { hookErrors: HookErrors }).hookErrors.uncaught(name)
  return { message, stack }
}
