// One realtime session (one connection): its conversation lives on the provider, and the client
// adds to it by sending events, so the guard counts each tool call once, when the client sends its
// result, and a due reminder is one more event, sent right after that result (before the client's
// next request for a response). Calls are known from the server's events, each id once however
// many events repeat it; a result for a call never seen is not counted. Nothing is read, and
// nothing is ever sent, before the server's first event says the connection is a session of the
// protocol (docs/zero-code.md, "Realtime sessions").
import { decodeUriComponent, regExpExec } from '../../intrinsics.ts'
import type { GuardConfig } from '../../types.ts'
import { headOf } from '../../text-head.ts'
import { parseRecord } from '../../records.ts'
import { formatName } from '../identity.ts'
import type { WireCall, WireEvent } from '../types.ts'
import type { WireAgent } from '../wire-agent.ts'
import type { Captured, WireObserver } from '../wire-observer.ts'
import { announce, reportCaptured } from '../wire-report.ts'
import type { RealtimeCall, RealtimeDialect, RealtimeNews, RealtimeOutput } from './types.ts'

/** Calls waiting for their result, and results already counted, kept at most (the oldest go first). */
const REMEMBERED = 1_024
const LABEL_CHARS = 60

/** What the client's message leads to: the messages to send right after it, and what to report. */
export interface RealtimeSent {
  readonly reminders: readonly string[]
  readonly events: readonly WireEvent[]
}

export interface RealtimeSession {
  /** A text message the server sent, as the page receives it. Throws on an internal failure. */
  received(text: string, config: GuardConfig): readonly WireEvent[]
  /** A text message the client sent (already on its way). Throws on an internal failure. */
  sent(text: string, config: GuardConfig): RealtimeSent
}

export interface SessionParts {
  readonly observer: WireObserver
  readonly configure: (config: GuardConfig) => void
  /** A new wire agent for this session, remembered with the others, labelled `label`. */
  readonly newAgent: (label: string) => WireAgent
}

const NONE: RealtimeSent = { reminders: [], events: [] }

export function createRealtimeSession(dialect: RealtimeDialect, address: string, { observer, configure, newAgent }: SessionParts): RealtimeSession {
  let open = false
  let instructions: string | undefined
  let model = modelInAddress(address)
  let agent: WireAgent | undefined
  const pending = new Map<string, RealtimeCall>()
  const counted = new Set<string>()

  /** The message's news, or undefined when its kind carries nothing the guard reads (never parsed then). */
  function read(text: string, kinds: ReadonlySet<string>, side: 'server' | 'client'): RealtimeNews | undefined {
    const kind = dialect.kindOf(text)
    if (kind !== undefined && !kinds.has(kind)) return undefined
    const message = parseRecord(text)
    if (message === undefined) return undefined
    const parsedKind = kind ?? dialect.kindOfMessage(message)
    return parsedKind !== undefined && kinds.has(parsedKind) ? dialect[side](message) : undefined
  }

  function learn(news: RealtimeNews): void {
    if (news.opens) open = true
    if (news.instructions !== undefined) instructions = news.instructions
    if (news.model !== undefined) model = news.model
  }

  function report(captured: readonly Captured[], placements: string[]): WireEvent[] {
    if (captured.length === 0) return []
    return [...announce(agent!, Date.now()), ...reportCaptured(agent!, captured, new Map([[0, placements]]))]
  }

  function note(call: RealtimeCall): void {
    if (counted.has(call.id)) return
    pending.set(call.id, { ...pending.get(call.id), ...call })
    if (pending.size > REMEMBERED) pending.delete(pending.keys().next().value!)
  }

  /** The call a result answers: by id, else the oldest waiting call of that name. */
  function answered(output: RealtimeOutput): RealtimeCall | undefined {
    if (output.id !== undefined) return pending.get(output.id)
    for (const call of pending.values()) if (call.name === output.name) return call
    return undefined
  }

  function count(call: RealtimeCall): void {
    pending.delete(call.id)
    counted.add(call.id)
    if (counted.size > REMEMBERED) counted.delete(counted.values().next().value!)
  }

  return {
    received(text, config) {
      const news = read(text, dialect.serverKinds, 'server')
      if (news === undefined) return []
      learn(news)
      for (const call of news.calls ?? []) note(call)
      for (const id of news.cancelled ?? []) pending.delete(id)
      if (!news.prompt || agent === undefined) return []
      configure(config)
      return report(observer.observeLive(agent, { kind: 'prompt' }), [])
    },

    sent(text, config) {
      const news = read(text, dialect.clientKinds, 'client')
      if (news === undefined) return NONE
      learn(news)
      if (!open) return NONE
      const captured: Captured[] = []
      const placements: string[] = []
      const reminders: string[] = []
      if (news.prompt && agent !== undefined) {
        configure(config)
        captured.push(...observer.observeLive(agent, { kind: 'prompt' }))
      }
      for (const output of news.outputs ?? []) {
        const call = answered(output)
        if (call?.name === undefined || call.arguments === undefined) continue
        count(call)
        agent ??= newAgent(labelOf(dialect, instructions, model))
        configure(config)
        const wireCall: WireCall = { name: call.name, arguments: call.arguments, isError: output.isError, content: output.content }
        for (const event of observer.observeLive(agent, { kind: 'calls', calls: [wireCall] })) {
          captured.push(event)
          if (event.event.type !== 'reminder') continue
          const reminder = event.event.message.content[0].text
          reminders.push(dialect.reminderMessage(reminder))
          placements.push(dialect.placement(call.id))
        }
      }
      return { reminders, events: report(captured, placements) }
    },
  }
}

const MODEL_PARAMETER = /[?&]model=([^&#]+)/

/** The `model` of the address's query, as the OpenAI SDKs put it there. */
function modelInAddress(address: string): string | undefined {
  const found = regExpExec(MODEL_PARAMETER, address)?.[1]
  if (found === undefined) return undefined
  try {
    return decodeUriComponent(found)
  } catch {
    return found
  }
}

/** The instructions' first line, else the model, else the protocol's name. */
function labelOf(dialect: RealtimeDialect, instructions: string | undefined, model: string | undefined): string {
  const line = instructions === undefined ? '' : instructions.trim().split('\n')[0]!.trim()
  if (line) {
    const head = headOf(line, LABEL_CHARS)
    return head.length < line.length ? `${head}…` : head
  }
  const name = formatName(dialect.protocol)
  return model ? `${name} session (${model})` : `${name} session`
}
