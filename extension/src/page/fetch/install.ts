// Zero-code mode (WIRE.md): the page's fetch becomes a Proxy over the native one that guards the
// LLM requests of agents that never call our API. Everything but the JSON body of such a request
// goes out as the page sent it (method, headers, credentials, signal, the response stream); a
// request that is not one, or that we fail on, goes out untouched. The origin's setting decides
// whether an LLM request is analysed at all (off), and whether the result may replace its body
// (guard) or is only shown (observe).
import type { GuardConfig } from '../../../../engine/index.ts'
import { createWireGuard, type WireGuard, type WireInspection } from '../../../../engine/wire/index.ts'
import { errorText, headOf } from '../../../../engine/text.ts'
import { LIMITS, type AgentState, type InspectorEvent, type Withheld } from '../../protocol/events.ts'
import type { ZeroCodeMode } from '../../protocol/zero-code-mode.ts'
import { printAsNative } from './native-look.ts'
import { createOutgoing, type Candidate } from './outgoing.ts'
import { withheldReason } from './rewrite-policy.ts'
import { toAgentState, toInspectorEvent } from './to-inspector.ts'

interface FetchInterceptorOptions {
  /** The page's global object; its `fetch` is replaced by a Proxy over the native one. */
  readonly target: typeof globalThis
  /** The config in force, read on every request (it changes live from the panel). */
  readonly config: () => GuardConfig
  /** The setting for this frame's origin, read on every request (it changes live from the panel). */
  readonly mode: () => ZeroCodeMode
  /** Inspector events for wire agents (`agent`, `call`, `reset`, `reminder`, `request`, `fault`). */
  readonly emit: (event: InspectorEvent) => void
  /**
   * Whether the page's own agent already reported this call through `window.__REPEAT_TOOL_GUARD__`
   * (recent calls, by tool and canonical arguments). A conversation whose calls the hook already saw
   * is the page's agent: the interceptor neither guards it again nor shows it as a wire agent.
   */
  readonly hookSaw: (tool: string, canonicalArguments: string) => boolean
  /** Conversations remembered at once (default 256); the one seen least recently is forgotten first. */
  readonly maxConversations?: number
}

/** What the page entry keeps of an installed interceptor. */
interface FetchInterception {
  /** The wire agents as they stand, for the `snapshot` a panel needs after a reconnect. */
  snapshot(): AgentState[]
}

type Fetch = typeof globalThis.fetch

export function installFetchInterceptor(options: FetchInterceptorOptions): FetchInterception {
  const { target, config, mode, emit, hookSaw, maxConversations } = options
  const nativeFetch = target.fetch
  if (typeof nativeFetch !== 'function') return { snapshot: () => [] }
  const outgoing = createOutgoing(target)
  // Built by the first request that may be an LLM request: most pages never send one.
  let wire: WireGuard | undefined
  const wireGuard = (): WireGuard => (wire ??= createWireGuard({ hookSaw, ...(maxConversations === undefined ? {} : { maxConversations }) }))
  const now = target.Date.now.bind(target.Date)

  /** Reports after the request is on its way; the page's emit must not delay or fail a fetch. */
  function report(inspection: WireInspection | undefined, input: unknown, withheld: Withheld | undefined): void {
    if (!inspection) return
    let url: string
    try {
      url = outgoing.urlOf(input)
    } catch {
      url = ''
    }
    for (const event of inspection.events) {
      try {
        emit(toInspectorEvent(event, url, withheld))
      } catch {
        // A broken pipeline loses an event, never a request.
      }
    }
  }

  function fault(error: unknown): void {
    let message: string
    try {
      message = errorText(error)
    } catch {
      message = 'unreadable error'
    }
    try {
      emit({ type: 'fault', at: now(), message: headOf(`fetch interceptor: the request went out unchanged: ${message}`, LIMITS.text) })
    } catch {
      // Nowhere left to report to.
    }
  }

  /** What to send, and what to report once it is on its way. */
  interface Plan {
    readonly args: readonly unknown[]
    readonly after: () => void
  }

  const failed = (args: readonly unknown[], error: unknown): Plan => ({ args, after: () => fault(error) })

  /** What an analysed request is sent as, and where it comes from. */
  interface Analysed {
    readonly text: string
    readonly input: unknown
    readonly keepalive: boolean
    readonly mode: Exclude<ZeroCodeMode, 'off'>
  }

  /** The call with the body the wire guard made of `text`, if it changed it and may send it; else the call as it came. */
  function plan(args: readonly unknown[], { text, input, keepalive, mode }: Analysed, withBody: (body: string) => readonly unknown[]): Plan {
    try {
      const inspection = wireGuard().inspect(text, config())
      const body = inspection?.body
      const withheld = withheldReason(mode, keepalive, body)
      return { args: body === undefined || withheld !== undefined ? args : withBody(body), after: () => report(inspection, input, withheld) }
    } catch (error) {
      return failed(args, error)
    }
  }

  /** The native fetch runs exactly once per call, outside every try: its own errors are the page's. */
  function dispatch(self: unknown, { args, after }: Plan): Promise<Response> {
    const response = Reflect.apply(nativeFetch, self, args) as Promise<Response>
    after()
    return response
  }

  /** A Request object's body has to be read first, from a clone: the page's stays unread. */
  async function dispatchRequest(self: unknown, args: readonly unknown[], { request }: Extract<Candidate, { kind: 'request' }>, mode: Analysed['mode']): Promise<Response> {
    let text: string
    try {
      text = await request.clone().text()
    } catch (error) {
      return dispatch(self, failed(args, error))
    }
    return dispatch(self, plan(args, { text, input: request, keepalive: false, mode }, (body) => [outgoing.requestWithBody(request, body)]))
  }

  const intercepted = new Proxy(nativeFetch, {
    apply(_fetch, self: unknown, args: unknown[]): Promise<Response> {
      let candidate: Candidate | undefined
      let current: ZeroCodeMode
      try {
        current = mode()
        // Off: not even looked at.
        candidate = current === 'off' ? undefined : outgoing.candidate(args)
      } catch (error) {
        return dispatch(self, failed(args, error))
      }
      if (!candidate || current === 'off') return Reflect.apply(nativeFetch, self, args) as Promise<Response>
      if (candidate.kind === 'request') return dispatchRequest(self, args, candidate, current)
      return dispatch(self, plan(args, { ...candidate, mode: current }, (body) => outgoing.withBody(args, body)))
    },
  }) satisfies Fetch

  const descriptor = Object.getOwnPropertyDescriptor(target, 'fetch')
  if (descriptor && 'value' in descriptor) Object.defineProperty(target, 'fetch', { ...descriptor, value: intercepted })
  else target.fetch = intercepted
  printAsNative(target, intercepted, nativeFetch)
  return { snapshot: () => wire?.snapshot().map(toAgentState) ?? [] }
}
