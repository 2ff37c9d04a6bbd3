// The panel events (events.ts), each variant checked exactly, and the drop counts that travel
// beside them; a batch of them is what the page, the relay and the service worker pass on.
import { WIRE_FORMATS } from '../../../engine/wire/index.ts'
import { AGENT_KINDS, AGENT_REACHES, LIMITS, WITHHELD_REASONS, type PanelEvent, type PanelEventType } from './events.ts'
import { type Check, both, checkedBefore, flag, isTrue, list, natural, oneOf, oneOfList, orNull, record, reject, text, time, variants } from './check-shapes.ts'
import { type Checked, attempt } from './check-run.ts'
import { guardConfig } from './config-check.ts'
import { approxSize } from './size.ts'

const agentId: Check = (value, path) => {
  text(LIMITS.label, 1)(value, path)
  if (!/^(hook|wire|webmcp):/.test(value as string)) reject('shape', `${path} must start with hook:, wire: or webmcp:`)
}

export const descriptorFields = { id: agentId, kind: oneOfList(AGENT_KINDS), label: text(LIMITS.label) }
export const descriptorOptional = { parentId: agentId, format: oneOfList(WIRE_FORMATS), reach: oneOfList(AGENT_REACHES) }
const toolName = text(LIMITS.toolName, 1)

const agentState = record({ ...descriptorFields, count: natural, nextThreshold: orNull(natural) }, { ...descriptorOptional, tool: toolName, args: text(LIMITS.args) })

const EVENTS: Readonly<Record<PanelEventType, Check>> = {
  agent: record({ type: checkedBefore, at: time, agent: record(descriptorFields, descriptorOptional) }),
  call: both(
    record(
      {
        type: checkedBefore,
        at: time,
        agentId,
        seq: natural,
        tool: toolName,
        args: text(LIMITS.args),
        argsLength: natural,
        tracked: flag,
        denied: flag,
        isError: flag,
        count: natural,
        nextThreshold: orNull(natural),
      },
      { result: text(LIMITS.result), resultLength: natural },
    ),
    (value, path) => {
      const { args, argsLength, result, resultLength } = value as { args: string; argsLength: number; result?: string; resultLength?: number }
      if (argsLength < args.length) reject('shape', `${path}.argsLength is shorter than its args`)
      // Present only when the result was cut: then the true length exceeds what is carried.
      if (resultLength !== undefined && (result === undefined || resultLength <= result.length)) reject('shape', `${path}.resultLength is not longer than its result`)
    },
  ),
  reset: record({ type: checkedBefore, at: time, agentId, reason: oneOf('prompt', 'different-call', 'result-changed'), previousCount: natural }),
  reminder: both(
    record(
      {
        type: checkedBefore,
        at: time,
        agentId,
        seq: natural,
        tool: toolName,
        count: natural,
        level: oneOf('gentle', 'detailed', 'cycle', 'error-run', 'similar', 'repeated-text'),
        text: text(LIMITS.text, 1),
      },
      {
        placement: text(LIMITS.label),
        textLength: natural,
        withheld: oneOfList(WITHHELD_REASONS),
        detector: oneOf('repeat', 'same-tool', 'cycle', 'error-run', 'similar', 'repeated-text'),
        wasteMs: natural,
        wasteTokens: natural,
      },
    ),
    (value, path) => {
      // Present only when the text was cut: then the true length exceeds what is carried.
      const { text: carried, textLength, placement, withheld } = value as { text: string; textLength?: number; placement?: string; withheld?: string }
      if (textLength !== undefined && textLength <= carried.length) reject('shape', `${path}.textLength is not longer than its text`)
      // A reminder due inside a server's loop had no place in any request of the page's.
      if (withheld !== undefined && withheld !== 'server-loop' && placement === undefined) reject('shape', `${path}.withheld needs the placement it would have had`)
    },
  ),
  request: both(
    record(
      {
        type: checkedBefore,
        at: time,
        agentId,
        url: text(LIMITS.url),
        format: descriptorOptional.format,
        calls: natural,
        remindersInserted: natural,
        rewritten: flag,
      },
      { withheld: oneOfList(WITHHELD_REASONS) },
    ),
    (value, path) => {
      const { rewritten, withheld } = value as { rewritten: boolean; withheld?: string }
      if (rewritten && withheld !== undefined) reject('shape', `${path} cannot be both rewritten and withheld`)
      // A server's loop sends no request of the page's: only its reminders are withheld for it.
      if (withheld === 'server-loop') reject('shape', `${path} is a request of the page's, not of a server's loop`)
    },
  ),
  blocked: record({ type: checkedBefore, at: time, agentId, tool: toolName, count: natural, feedback: text(LIMITS.text, 1) }, { wouldBlock: isTrue, wasteMs: natural, wasteTokens: natural }),
  config: record({ type: checkedBefore, at: time, config: guardConfig }),
  fault: record({ type: checkedBefore, at: time, message: text(LIMITS.text) }),
  snapshot: record({ type: checkedBefore, at: time, agents: list(agentState), config: guardConfig }),
  'page-load': record({ type: checkedBefore, at: time, url: text(LIMITS.url) }),
}

export const panelEvent = variants('type', EVENTS)
export const events = list(panelEvent, LIMITS.eventsPerBatch)

export const dropCounts = record({}, { source: natural, version: natural, shape: natural, size: natural, sender: natural, rate: natural })

/** One panel event on its own (the panel's session import). */
export function checkPanelEvent(value: unknown): Checked<PanelEvent> {
  return attempt(value, () => {
    if (approxSize(value, LIMITS.batchBytes) > LIMITS.batchBytes) reject('size', `the event is larger than ${LIMITS.batchBytes} bytes`)
    panelEvent(value, '$')
  })
}
