import { createRepeatToolGuard, type GuardConfig, type ReminderLevel, type ToolResult } from '../../../../engine/index.ts'
import type { PanelEvent } from '../../protocol/events.ts'
import type { AgentKey, TimelineEntry } from './timeline-entry.ts'

export interface WhatIfReminder {
  readonly level: ReminderLevel
  readonly count: number
  readonly text: string
}

/** One call where a reminder fired in the recording, would fire under the edited config, or both. */
export interface WhatIfRow {
  readonly agent: AgentKey
  readonly seq: number
  readonly tool: string
  readonly args: string
  /** What the page's guard sent. */
  readonly recorded?: WhatIfReminder
  /** What a guard running the edited config would send. */
  readonly replayed?: WhatIfReminder
  readonly change: 'same' | 'added' | 'removed' | 'changed'
}

export interface WhatIfReport {
  readonly config: GuardConfig
  readonly calls: number
  readonly rows: readonly WhatIfRow[]
  readonly totals: Readonly<Record<WhatIfRow['change'], number>> & { readonly recorded: number; readonly replayed: number }
  /** Calls whose arguments reached the panel cut short: compared by their head and true length. */
  readonly clippedArgs: number
  /**
   * The session was exported sanitized: arguments and results are their length and a hash, so
   * calls are compared by those (equal where the originals were), and reminders by level and
   * count alone, as their recorded texts no longer quote the arguments.
   */
  readonly sanitized: boolean
  /**
   * Repeated-answer reminders recorded (zero-code mode's `repeatedText`): they count the model's
   * answers, which the rows do not hold, so they are left out of the replay and counted here.
   */
  readonly answersNotReplayed: number
}

type CallEvent = Extract<PanelEvent, { type: 'call' }>

interface PendingRow {
  readonly agent: AgentKey
  readonly event: CallEvent
  replayed?: WhatIfReminder
  recorded?: WhatIfReminder
}

/**
 * Replays the recorded calls, in the order they happened, through a fresh engine guard running
 * `config`: each recorded agent gets its own chain, user prompts reset it as they did, and the
 * reminders the guard would send are set against the ones the page's guard did send.
 */
export function replayWhatIf(log: Iterable<TimelineEntry>, config: GuardConfig, { sanitized = false } = {}): WhatIfReport {
  const same = sanitized ? sameOccasion : sameReminder
  const guard = createRepeatToolGuard(config)
  let fired: WhatIfReminder | undefined
  guard.subscribe((event) => {
    if (event.type === 'reminder') fired = { level: event.level, count: event.count, text: event.message.content[0].text }
  })
  const handles = new Map<AgentKey, object>()
  const handle = (agent: AgentKey): object => {
    let h = handles.get(agent)
    if (!h) handles.set(agent, (h = { name: agent }))
    return h
  }
  const calls = new Map<string, PendingRow>()
  let clippedArgs = 0
  let answersNotReplayed = 0
  for (const { agent, event } of log) {
    if (agent === null) continue
    switch (event.type) {
      case 'call': {
        fired = undefined
        const clipped = event.args.length < event.argsLength
        if (clipped) clippedArgs += 1
        guard.observe({ agent: handle(agent), name: event.tool, arguments: clipped ? clippedArguments(event) : event.args }, recordedResult(event))
        calls.set(`${agent}#${event.seq}`, { agent, event, ...(fired ? { replayed: fired } : {}) })
        break
      }
      case 'reminder': {
        if (event.level === 'repeated-text') {
          answersNotReplayed += 1
          break
        }
        const row = calls.get(`${agent}#${event.seq}`)
        if (row) row.recorded = { level: event.level, count: event.count, text: event.text }
        break
      }
      case 'reset':
        if (event.reason === 'prompt') guard.promptSubmit(handle(agent))
        break
    }
  }
  const totals = { same: 0, added: 0, removed: 0, changed: 0, recorded: 0, replayed: 0 }
  const rows: WhatIfRow[] = []
  for (const { agent, event, recorded, replayed } of calls.values()) {
    if (!recorded && !replayed) continue
    const change = !recorded ? 'added' : !replayed ? 'removed' : (errorUnrecorded(recorded, event) ? sameOccasion : same)(recorded, replayed) ? 'same' : 'changed'
    totals[change] += 1
    if (recorded) totals.recorded += 1
    if (replayed) totals.replayed += 1
    rows.push({ agent, seq: event.seq, tool: event.tool, args: event.args, change, ...(recorded ? { recorded } : {}), ...(replayed ? { replayed } : {}) })
  }
  return { config, calls: calls.size, rows, totals, clippedArgs, sanitized, answersNotReplayed }
}

/**
 * Arguments cut at the protocol's limit stand for themselves plus their true length, so two calls
 * that differ only past the cut still differ when their lengths do.
 */
function clippedArguments(event: CallEvent): string {
  return `${event.args}… (+${event.argsLength - event.args.length} more chars)`
}

/**
 * The outcome as recorded. The result's content was recorded only where the page's guard was
 * result-aware for the tool; elsewhere the replay compares results without content, as the
 * original guard does. A cut result stands for its head plus its true length, as arguments do.
 */
function recordedResult(event: CallEvent): ToolResult {
  const { denied, isError, result, resultLength } = event
  if (result === undefined) return { denied, isError }
  return { denied, isError, content: resultLength === undefined ? result : `${result}… (+${resultLength - result.length} more chars)` }
}

/**
 * An error-run reminder quotes the last error, which the rows hold only where the page's guard was
 * result-aware for the tool: elsewhere the replay cannot write it, so the two compare by level and count.
 */
function errorUnrecorded(recorded: WhatIfReminder, call: CallEvent): boolean {
  return recorded.level === 'error-run' && call.result === undefined
}

function sameReminder(a: WhatIfReminder, b: WhatIfReminder): boolean {
  return sameOccasion(a, b) && a.text === b.text
}

function sameOccasion(a: WhatIfReminder, b: WhatIfReminder): boolean {
  return a.level === b.level && a.count === b.count
}
