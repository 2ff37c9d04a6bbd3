// WebLLM's Web Worker engine (docs/zero-code.md, "WebLLM"): `@mlc-ai/web-llm` runs the model in a worker, and its
// `WebWorkerMLCEngine` client posts each chat completion request there as an object. The page's
// `Worker.prototype.postMessage` becomes a Proxy over the native one that guards those requests by
// the Chat Completions rules before they are posted. Any other message, and any call while the
// origin's setting is off, goes to the native postMessage with the very same arguments and nothing
// started. A request the analysis changes is posted as a new message, equal to the page's but for
// the request; one the guard fails on goes out as the page made it, and the fault is reported.
// Every message to a worker passes here: only built-ins captured at document_start are called, and
// the native's own errors reach the page as it threw them (native-errors.ts).
import { callFunction, jsonStringify } from '../../../../engine/intrinsics.ts'
import type { ZeroCodeMode } from '../../protocol/zero-code-mode.ts'
import { argument } from '../hook-arguments.ts'
import { asNativeThrew } from '../native-errors.ts'
import type { Plan } from '../wire/analysis.ts'
import { createSafePlanner } from '../wire/safe-plan.ts'
import { chatRequestOf, modelOf, type ChatRequestMessage } from './request.ts'
import { messageWithRequest } from './rewritten-message.ts'
import type { TransportHookOptions } from '../transport-hook.ts'

type PostMessage = (this: unknown, ...args: unknown[]) => unknown

const ownDescriptor = Object.getOwnPropertyDescriptor
const defineProperty = Object.defineProperty

/** Replaces `Worker.prototype.postMessage`; false when the page has no workers. */
export function installWebllmInterceptor({ target, mode, analysis, showAsNative }: TransportHookOptions): boolean {
  const prototype = typeof target.Worker === 'function' ? (target.Worker.prototype as object | undefined) : undefined
  const descriptor = prototype === undefined ? undefined : ownDescriptor(prototype, 'postMessage')
  const found: unknown = descriptor?.value
  if (typeof found !== 'function') return false
  const nativePostMessage = found as PostMessage

  const { plan: planned, failed } = createSafePlanner(analysis, 'webllm')

  function plan(args: readonly unknown[], chat: ChatRequestMessage, current: Exclude<ZeroCodeMode, 'off'>): Plan {
    let text: string
    try {
      text = jsonStringify(chat.request)
    } catch (error) {
      return failed(args, error)
    }
    const withBody = (body: string): unknown[] => withMessage(args, messageWithRequest(chat, body))
    return planned(args, { text, url: () => `webllm:${modelOf(chat)}`, keepalive: false, mode: current, reach: 'webllm' }, withBody)
  }

  /** What to post instead of the page's call, if the call is a chat completion request to guard. */
  function planFor(args: readonly unknown[]): Plan | undefined {
    let current: ZeroCodeMode
    try {
      current = mode()
    } catch (error) {
      return failed(args, error)
    }
    // Off: not even looked at.
    if (current === 'off') return undefined
    const chat = chatRequestIn(args)
    return chat === undefined ? undefined : plan(args, chat, current)
  }

  /** The native postMessage runs exactly once per call: its own errors are the page's. */
  function postMessageTrap(_postMessage: PostMessage, self: unknown, args: unknown[]): unknown {
    const planned = planFor(args)
    const sent = planned === undefined ? args : planned.args
    let result: unknown
    try {
      result = callFunction(nativePostMessage, self, sent)
    } catch (error) {
      throw asNativeThrew(error, sent, postMessageTrap)
    }
    planned?.after()
    return result
  }

  const intercepted = new Proxy(nativePostMessage, { apply: postMessageTrap })

  defineProperty(prototype, 'postMessage', { ...descriptor, value: intercepted })
  showAsNative(intercepted, nativePostMessage)
  return true
}

/**
 * The chat completion request the call posts, if any. A message that cannot even be read (a Proxy
 * whose trap throws) is no request of WebLLM's: the native postMessage meets it as without us.
 */
function chatRequestIn(args: readonly unknown[]): ChatRequestMessage | undefined {
  try {
    return chatRequestOf(argument(args, 0))
  } catch {
    return undefined
  }
}

/** The call's arguments with `message` first: the transfer list or options stay the page's. */
function withMessage(args: readonly unknown[], message: object): unknown[] {
  const out: unknown[] = [message]
  for (let i = 1; i < args.length; i++) out[out.length] = args[i]
  return out
}
