// A page realm for the WebLLM hook's tests, in Node: a separate realm stands for the page (so
// patching its Function.prototype.toString leaves the test runner alone), with a fake Worker class
// whose postMessage records what reached it. The messages are the ones `WebWorkerMLCEngine` posts.
import vm from 'node:vm'
import { expect } from 'vitest'
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../../../engine/index.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { installWebllmInterceptor } from '../../../../../extension/src/page/webllm/install.ts'
import { createWireAnalysis, type WireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'
import { openaiChatBody } from '../../../../fixtures/wire/conversations.ts'
import { loop } from '../support/looping-agent.ts'

export const MODEL = 'Hermes-3-Llama-3.1-8B-q4f16_1-MLC'

/** A chat completion request message, as the client posts it for `chat.completions.create(request)`. */
export function chatMessage(request: object, stream = false): Record<string, unknown> {
  return stream
    ? { kind: 'chatCompletionStreamInit', uuid: 'u-1', content: { request, selectedModelId: MODEL, streamId: 's-1', modelId: [MODEL], chatOpts: undefined } }
    : { kind: 'chatCompletionNonStreaming', uuid: 'u-1', content: { request, modelId: [MODEL], chatOpts: [{ temperature: 0 }] } }
}

export const chatRequest = (steps: number): Record<string, unknown> => ({ ...openaiChatBody(loop(steps)), model: MODEL, stream: false })

export interface Page {
  readonly target: typeof globalThis
  readonly Worker: new (url: string) => object
  readonly events: PanelEvent[]
  /** What reached the native postMessage, call by call. */
  readonly posted: { self: unknown; args: unknown[] }[]
  /** How often the analysis was asked for (the on-demand half started). */
  asked: number
  config: () => GuardConfig
  mode: () => ZeroCodeMode
}

/** A page realm with a Worker class whose native postMessage records its calls. */
export function page(): Page {
  const context = vm.createContext({})
  const target = vm.runInContext('globalThis', context) as typeof globalThis
  const Worker = vm.runInContext(
    `globalThis.Worker = class Worker {
      constructor(url) { this.url = url }
      postMessage(message, transfer) {
        if (!(this instanceof Worker)) throw new TypeError('Illegal invocation')
        posted.push({ self: this, args: [...arguments] })
      }
    }`,
    context,
  ) as Page['Worker']
  const state: Page = {
    target,
    Worker,
    events: [],
    posted: [],
    asked: 0,
    config: () => RECOMMENDED_CONFIG,
    mode: () => 'guard',
  }
  ;(target as unknown as { posted: unknown }).posted = state.posted
  let analysis: WireAnalysis | undefined
  installWebllmInterceptor({
    target,
    mode: () => state.mode(),
    showAsNative: createNativeLook(target),
    analysis: () => {
      state.asked++
      return (analysis ??= createWireAnalysis({ config: () => state.config(), emit: (event) => state.events.push(event), hookSaw: () => false, now: Date.now }))
    },
  })
  return state
}

/** Posts `args` to a new worker of the page, and returns what reached the native postMessage. */
export function post(p: Page, ...args: unknown[]): unknown[] {
  const worker = new p.Worker('/webllm-worker.js')
  ;(worker as { postMessage(...args: unknown[]): void }).postMessage(...args)
  const last = p.posted.at(-1)!
  expect(last.self).toBe(worker)
  return last.args
}
