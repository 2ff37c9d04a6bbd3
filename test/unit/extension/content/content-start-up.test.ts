// @vitest-environment happy-dom
// What the relay does at document_start in a top frame: it listens on the window, and touches
// `chrome.runtime` (the first touch of the extension's API costs a frame more than the rest of the
// script) only once the page has loaded and the browser is idle.
import { afterEach, describe, expect, it, vi } from 'vitest'

// The relay's on-demand half (bridge, storage) is not started here.
vi.mock('webextension-polyfill', () => ({ default: {} }))

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
  delete (document as { readyState?: unknown }).readyState
})

describe("the relay's start-up in a top frame", () => {
  it('listens for the wake-up call only after the load event and an idle moment', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const touched: string[] = []
    const listeners: unknown[] = []
    vi.stubGlobal('chrome', {
      get runtime() {
        touched.push('runtime')
        return { onMessage: { addListener: (listener: unknown) => void listeners.push(listener) } }
      },
    })
    // The page is still loading when the relay runs, as it is at document_start.
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true })
    await import('../../../../extension/src/content/index.ts')
    await vi.advanceTimersByTimeAsync(5_000)
    expect(touched).toEqual([])

    delete (document as { readyState?: unknown }).readyState
    window.dispatchEvent(new Event('load'))
    expect(touched).toEqual([])
    await vi.advanceTimersByTimeAsync(1_000)
    expect(touched).toEqual(['runtime'])
    expect(listeners).toHaveLength(1)
    // Later loads (a load event of the window again) add none.
    window.dispatchEvent(new Event('load'))
    await vi.advanceTimersByTimeAsync(1_000)
    expect(listeners).toHaveLength(1)
  })
})
