// What the extension does for a useChat page, done by the playground itself when the extension is
// not installed, so that a newcomer sees the same panel inline: each request goes through the wire
// guard (a reminder due where the loop crosses the page, client-side tools, is inserted), and each
// UI message stream is read as the page reads it, its events made into the same panel events the
// extension's page script makes (docs/zero-code.md, "Agents whose loop runs on the server").
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../engine/index.ts'
import { createWireGuard, type WireEvent } from '../../engine/wire/index.ts'
import { reachOfFormat, STREAM_REACH, toPanelEvent } from '../../extension/src/protocol/from-wire.ts'
import type { AgentReach, PanelEvent } from '../../extension/src/protocol/events.ts'

export interface StandaloneGuard {
  /** A fetch for the chat's transport: the request guarded, the response read as the page reads it. */
  readonly fetch: typeof globalThis.fetch
  config: GuardConfig
}

export function createStandaloneGuard(emit: (events: PanelEvent[]) => void, nativeFetch: typeof globalThis.fetch = globalThis.fetch.bind(globalThis)): StandaloneGuard {
  const wire = createWireGuard()
  const reachOf = new Map<number, AgentReach>()
  const guard: StandaloneGuard = { fetch: guarded, config: RECOMMENDED_CONFIG }

  function report(events: readonly WireEvent[], url: string, reach: AgentReach): void {
    if (events.length === 0) return
    for (const event of events) if (event.type === 'agent') reachOf.set(event.agentId, reachOfFormat(event.format, reach))
    emit(events.map((event) => toPanelEvent(event, url, undefined, reachOf.get(event.agentId))))
  }

  async function guarded(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(String(input), location.href).href
    const text = typeof init?.body === 'string' ? init.body : undefined
    if (text === undefined) return nativeFetch(input, init)
    const inspection = wire.inspect(text, guard.config)
    const response = await nativeFetch(input, inspection?.body === undefined ? init : { ...init, body: inspection.body })
    if (inspection) report(inspection.events, url, 'fetch')
    const reading = response.headers.get('x-vercel-ai-ui-message-stream') === 'v1' && response.body ? wire.openStream(text, 'ui-message-stream', guard.config) : undefined
    if (!reading || !response.body) return response
    const decoder = new TextDecoder()
    const reach = STREAM_REACH['ui-message-stream']
    // Passed through chunk by chunk, as the page reads them.
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          report(reading.push(decoder.decode(chunk, { stream: true })), url, reach)
          controller.enqueue(chunk)
        },
        flush() {
          report(reading.push(decoder.decode()), url, reach)
          report(reading.end(false), url, reach)
        },
        cancel() {
          report(reading.end(true), url, reach)
        },
      } as Transformer<Uint8Array, Uint8Array>),
    )
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }

  return guard
}
