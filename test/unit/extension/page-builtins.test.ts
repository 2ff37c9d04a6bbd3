// @vitest-environment happy-dom
// The page script's captured built-ins: what its message listener throws never reaches the page.
import { describe, expect, it } from 'vitest'
import { captureBuiltins } from '../../../extension/src/page/builtins.ts'

const deliver = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, source: window }))

describe('the captured message listener', () => {
  it('hands what the listener throws to onError, and nothing to the page', () => {
    const builtins = captureBuiltins(window)
    const pageErrors: unknown[] = []
    window.addEventListener('error', (event) => void pageErrors.push(event.error))
    const handled: unknown[] = []
    const seen: unknown[] = []
    builtins.onMessage(
      (source, data) => {
        seen.push([source === window, data])
        if (data === 'break') throw new Error('listener broke')
      },
      (error) => void handled.push((error as Error).message),
    )
    // An onError that throws too: swallowed, the page still sees nothing.
    builtins.onMessage(
      () => {
        throw new Error('again')
      },
      () => {
        throw new Error('and the report')
      },
    )
    expect(() => deliver('fine')).not.toThrow()
    expect(() => deliver('break')).not.toThrow()
    expect(seen).toEqual([[true, 'fine'], [true, 'break']])
    expect(handled).toEqual(['listener broke'])
    expect(pageErrors).toEqual([])
  })
})
