// The exported session: plain JSON holding everything the panel recorded, so a file written by
// `exportSession` imports back into exactly the same session. Imported files are untrusted: the
// file's size is capped, every event goes through the protocol's own validator, and every other
// field that holds a text the protocol carries (URLs, fault messages, tool names, arguments) goes
// through it too, wrapped as the event that carries it live, so the caps are the protocol's.
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../../engine/index.ts'
import type { DropCounts, DropReason } from '../../protocol/messages.ts'
import { checkPanelEvent } from '../../protocol/validate.ts'
import type { FaultRecord } from './fault-record.ts'
import { agentKey, type AgentRecord, type TimelineEntry } from './timeline-entry.ts'
import { errorText, isRecord } from '../../../../engine/safe-reading.ts'
import { sessionSizeError } from './session-size.ts'

const SESSION_FORMAT = 'repeat-tool-guard/session'
const SESSION_VERSION = 1

interface SessionFrame {
  readonly frameId: number
  readonly pageLoad: number
  readonly url: string
}

/** `wasted`, `loopSpent` and `cycle` are left out: importing derives them again from the rows. */
type SessionAgent = Readonly<Omit<AgentRecord, 'rev' | 'wasted' | 'loopSpent' | 'cycle'>>

export interface SessionFile {
  readonly format: typeof SESSION_FORMAT
  readonly version: typeof SESSION_VERSION
  readonly config: GuardConfig | null
  readonly frames: readonly SessionFrame[]
  readonly agents: readonly SessionAgent[]
  readonly entries: readonly TimelineEntry[]
  readonly faults: readonly FaultRecord[]
  readonly drops: DropCounts
  readonly discarded: number
  /** Arguments, results and fault texts are stand-ins (sanitized-session.ts). */
  readonly sanitized?: true
}

export type ImportResult = { readonly ok: true; readonly session: SessionFile; readonly warnings: readonly string[] } | { readonly ok: false; readonly errors: readonly string[] }

const MAX_ERRORS = 10
const TIMELINE_TYPES = new Set(['call', 'reset', 'reminder', 'blocked', 'request', 'page-load'])
const DROP_REASONS: readonly DropReason[] = ['source', 'version', 'shape', 'size', 'sender', 'rate']
const TOP_KEYS = ['format', 'version', 'config', 'frames', 'agents', 'entries', 'faults', 'drops', 'discarded', 'sanitized']
const AGENT_KEYS = ['key', 'frameId', 'pageLoad', 'descriptor', 'parentKey', 'tool', 'args', 'count', 'nextThreshold', 'calls', 'reminders', 'lastSeq', 'lastReminderSeq', 'firstAt', 'lastAt']
const AGENT_OPTIONAL = new Set(['parentKey', 'tool', 'args'])

class Invalid extends Error {}

const fail = (path: string, problem: string): never => {
  throw new Invalid(`${path} ${problem}`)
}

function objectWith(value: unknown, path: string, keys: readonly string[], optional: ReadonlySet<string> = new Set()): Record<string, unknown> {
  if (!isRecord(value)) return fail(path, 'must be an object')
  for (const key of Object.keys(value)) if (!keys.includes(key)) fail(`${path}.${key}`, 'is not expected')
  for (const key of keys) if (!optional.has(key) && !Object.hasOwn(value, key)) fail(`${path}.${key}`, 'is missing')
  return value
}

function natural(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) fail(path, 'must be a non-negative integer')
  return value as number
}

function timestamp(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) fail(path, 'must be a timestamp')
  return value as number
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'must be a string')
  return value as string
}

function array(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(path, 'must be an array')
  return value as readonly unknown[]
}

/** Runs the protocol validator on an embedded event, reporting its complaint at `path`. */
function event(value: unknown, path: string): void {
  const checked = checkPanelEvent(value)
  if (!checked.ok) fail(path, `is not a valid event: ${checked.detail.replace(/^\$/, 'event')}`)
}

function config(value: unknown, path: string): GuardConfig | null {
  if (value === null) return null
  event({ type: 'config', at: 0, config: value }, path)
  return value as GuardConfig
}

function frame(value: unknown, path: string): SessionFrame {
  const f = objectWith(value, path, ['frameId', 'pageLoad', 'url'])
  natural(f.frameId, `${path}.frameId`)
  natural(f.pageLoad, `${path}.pageLoad`)
  event({ type: 'page-load', at: 0, url: f.url }, path)
  return f as unknown as SessionFrame
}

function agent(value: unknown, path: string): SessionAgent {
  const a = objectWith(value, path, AGENT_KEYS, AGENT_OPTIONAL)
  event({ type: 'agent', at: 0, agent: a.descriptor }, `${path}.descriptor`)
  for (const key of ['frameId', 'pageLoad', 'count', 'calls', 'reminders', 'lastSeq', 'lastReminderSeq']) natural(a[key], `${path}.${key}`)
  for (const key of ['firstAt', 'lastAt']) timestamp(a[key], `${path}.${key}`)
  // The chain state as a snapshot carries it live: the same caps on tool, arguments and counts.
  const descriptor = a.descriptor as SessionAgent['descriptor']
  const state = { ...descriptor, count: a.count, nextThreshold: a.nextThreshold, ...(Object.hasOwn(a, 'tool') ? { tool: a.tool } : {}), ...(Object.hasOwn(a, 'args') ? { args: a.args } : {}) }
  event({ type: 'snapshot', at: 0, agents: [state], config: RECOMMENDED_CONFIG }, path)
  const expected = agentKey(a.frameId as number, a.pageLoad as number, descriptor.id)
  if (a.key !== expected) fail(`${path}.key`, `must be "${expected}" (frame, page load and agent id)`)
  const parent = descriptor.parentId === undefined ? undefined : agentKey(a.frameId as number, a.pageLoad as number, descriptor.parentId)
  if (a.parentKey !== parent) fail(`${path}.parentKey`, parent === undefined ? 'must be absent: the agent has no parent' : `must be "${parent}" (its parent's key)`)
  return a as unknown as SessionAgent
}

/** `declared`: every key the file lists, valid or not, so a bad agent is reported once, not per entry. */
function entry(value: unknown, path: string, agents: ReadonlyMap<string, SessionAgent>, declared: ReadonlySet<unknown>): TimelineEntry {
  const e = objectWith(value, path, ['agent', 'frameId', 'event'])
  natural(e.frameId, `${path}.frameId`)
  event(e.event, `${path}.event`)
  const ev = e.event as TimelineEntry['event'] | { type: string }
  if (!TIMELINE_TYPES.has(ev.type)) fail(`${path}.event.type`, `"${ev.type}" is not a timeline event`)
  if (ev.type === 'page-load') {
    if (e.agent !== null) fail(`${path}.agent`, 'must be null for a page load')
  } else {
    const owner = agents.get(string(e.agent, `${path}.agent`))
    if (!owner) {
      if (!declared.has(e.agent)) fail(`${path}.agent`, 'names no agent of the session')
    } else if (owner.descriptor.id !== (ev as { agentId: string }).agentId || owner.frameId !== e.frameId)
      fail(`${path}`, `belongs to ${String(e.agent)} but its event names ${(ev as { agentId: string }).agentId}`)
  }
  return e as unknown as TimelineEntry
}

function fault(value: unknown, path: string): FaultRecord {
  const f = objectWith(value, path, ['frameId', 'at', 'message'])
  natural(f.frameId, `${path}.frameId`)
  event({ type: 'fault', at: f.at, message: f.message }, path)
  return f as unknown as FaultRecord
}

function drops(value: unknown, path: string): DropCounts {
  const d = objectWith(value, path, DROP_REASONS, new Set(DROP_REASONS))
  for (const key of Object.keys(d)) natural(d[key], `${path}.${key}`)
  return d as DropCounts
}

/** Validates every item of a list, collecting up to MAX_ERRORS complaints instead of stopping at one. */
function each<T>(items: readonly unknown[], path: string, errors: string[], check: (item: unknown, path: string) => T): T[] {
  const out: T[] = []
  for (let i = 0; i < items.length && errors.length < MAX_ERRORS; i++) {
    try {
      out.push(check(items[i], `${path}[${i}]`))
    } catch (error) {
      if (!(error instanceof Invalid)) throw error
      errors.push(error.message)
    }
  }
  return out
}

/**
 * Parses and checks a session file. Entries beyond `maxEntries` are trimmed from the front (with a
 * warning); anything malformed fails the whole import with the first problems found.
 */
export function parseSession(text: string, limits: { readonly maxEntries: number; readonly maxAgents: number; readonly maxFaults: number; readonly maxBytes: number }): ImportResult {
  const tooLarge = sessionSizeError(text.length, limits.maxBytes)
  if (tooLarge !== undefined) return { ok: false, errors: [tooLarge] }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    return { ok: false, errors: [`The file is not JSON: ${errorText(error)}`] }
  }
  const errors: string[] = []
  const warnings: string[] = []
  try {
    const file = objectWith(data, 'session', TOP_KEYS, new Set(['sanitized']))
    if (file.format !== SESSION_FORMAT) fail('session.format', `must be "${SESSION_FORMAT}": this is not a Repeat Tool Guard session`)
    if (file.version !== SESSION_VERSION) fail('session.version', `${String(file.version)} is not supported (this panel reads version ${SESSION_VERSION})`)
    const sessionConfig = config(file.config, 'session.config')
    const frames = each(array(file.frames, 'session.frames'), 'session.frames', errors, frame)
    if (new Set(frames.map((f) => f.frameId)).size !== frames.length) errors.push('session.frames lists a frame twice')
    const agentItems = array(file.agents, 'session.agents')
    if (agentItems.length > limits.maxAgents) fail('session.agents', `holds ${agentItems.length} agents; this panel keeps at most ${limits.maxAgents}`)
    const agents = each(agentItems, 'session.agents', errors, agent)
    const byKey = new Map(agents.map((a) => [a.key, a]))
    if (byKey.size !== agents.length) errors.push('session.agents lists an agent twice')
    let entryItems = array(file.entries, 'session.entries')
    if (entryItems.length > limits.maxEntries) {
      warnings.push(`Kept the newest ${limits.maxEntries} of ${entryItems.length} timeline rows (this panel's limit).`)
      entryItems = entryItems.slice(entryItems.length - limits.maxEntries)
    }
    const declared = new Set(agentItems.map((item) => (isRecord(item) ? item.key : undefined)))
    const entries = each(entryItems, 'session.entries', errors, (item, path) => entry(item, path, byKey, declared))
    const faults = each(array(file.faults, 'session.faults').slice(-limits.maxFaults), 'session.faults', errors, fault)
    const sessionDrops = drops(file.drops, 'session.drops')
    const discarded = natural(file.discarded, 'session.discarded') + (array(file.entries, 'session.entries').length - entryItems.length)
    if (Object.hasOwn(file, 'sanitized') && file.sanitized !== true) fail('session.sanitized', 'must be true when present')
    if (errors.length > 0) return { ok: false, errors }
    const sanitized = file.sanitized === true ? { sanitized: true as const } : {}
    return {
      ok: true,
      warnings,
      session: { format: SESSION_FORMAT, version: SESSION_VERSION, config: sessionConfig, frames, agents, entries, faults, drops: sessionDrops, discarded, ...sanitized },
    }
  } catch (error) {
    if (!(error instanceof Invalid)) throw error
    return { ok: false, errors: [...errors, error.message] }
  }
}
