// The WebLLM hook lets what is not a chat request with a due reminder pass as it came.
import { describe, expect, test } from 'vitest'
import { MODEL, chatMessage, chatRequest, page, post } from './worker-page.ts'

describe('what passes untouched: the very same arguments, the analysis never asked for', () => {
  const request = chatRequest(3)
  const transfer = [new ArrayBuffer(8)]
  const withGetter = Object.defineProperty({ uuid: 'u', content: { request } }, 'kind', { get: () => expect.fail('a getter of the page ran'), enumerable: true })
  const cases: [string, unknown[]][] = [
    ['a string', ['hello']],
    ['a number with a transfer list', [1, transfer]],
    ['null', [null]],
    ['nothing at all', []],
    ['an array', [[request]]],
    ["another app's message", [{ type: 'render', payload: request }]],
    ["WebLLM's reload", [{ kind: 'reload', uuid: 'u', content: { modelId: [MODEL], chatOpts: undefined } }]],
    ["WebLLM's next stream chunk", [{ kind: 'completionStreamNextChunk', uuid: 'u', content: { streamId: 's' } }]],
    ['a (legacy) completion request', [{ kind: 'completionNonStreaming', uuid: 'u', content: { request: { prompt: 'hi' }, modelId: [MODEL] } }]],
    ['a chat kind without uuid', [{ kind: 'chatCompletionNonStreaming', content: { request } }]],
    ['a chat kind whose content is no object', [{ kind: 'chatCompletionNonStreaming', uuid: 'u', content: 'x' }]],
    ['a chat kind without messages', [{ kind: 'chatCompletionNonStreaming', uuid: 'u', content: { request: { model: MODEL } } }]],
    ['a kind behind a getter (never called)', [withGetter]],
    ['a kind inherited, not own', [Object.assign(Object.create({ kind: 'chatCompletionNonStreaming' }), { uuid: 'u', content: { request } })]],
    ['a message with options', [{ any: 1 }, { transfer }]],
  ]
  test.each(cases)('%s', (_, args) => {
    const p = page()
    const sent = post(p, ...args)
    expect(sent).toHaveLength(args.length)
    sent.forEach((arg, i) => expect(arg).toBe(args[i]))
    expect(p.asked).toBe(0)
    expect(p.events).toEqual([])
  })

  test('a message whose reading throws meets the native postMessage as it came', () => {
    const p = page()
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor: () => {
          throw new Error('trap')
        },
      },
    )
    expect(post(p, hostile)[0]).toBe(hostile)
    expect(p.asked).toBe(0)
  })

  test('a chat completion request with no tool call yet is analysed and goes out as it came', () => {
    const p = page()
    const message = chatMessage({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] })
    expect(post(p, message)[0]).toBe(message)
    expect(p.asked).toBe(1)
    expect(p.events).toEqual([])
  })

  test("the native postMessage's own errors and `this` are the page's", () => {
    const p = page()
    const postMessage = p.target.Worker.prototype.postMessage
    expect(() => Reflect.apply(postMessage, {}, ['hello'])).toThrow(new TypeError('Illegal invocation'))
    expect(() => Reflect.apply(postMessage, {}, [chatMessage(chatRequest(3))])).toThrow(new TypeError('Illegal invocation'))
    expect(p.posted).toEqual([])
  })

  test('an error the native raised with text arguments has the stack it would have without the hook', () => {
    const p = page()
    const postMessage = p.target.Worker.prototype.postMessage
    let stack = ''
    function pagePostsToAForeignReceiver(): void {
      Reflect.apply(postMessage, {}, ['hello'])
    }
    try {
      pagePostsToAForeignReceiver()
    } catch (error) {
      stack = (error as Error).stack ?? ''
    }
    const frames = stack.split('\n').slice(1)
    expect(frames[0]).toMatch(/^\s+at pagePostsToAForeignReceiver \(/)
    expect(frames.join('\n')).not.toContain('/extension/src/page/')
  })
})
