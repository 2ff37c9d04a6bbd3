// Hand-written validators for every message between contexts and every inspector event. Each hop
// runs them on what it receives (the page is hostile and can post anything) and drops, by reason,
// whatever fails: a wrong tag, a wrong protocol version, a size over `LIMITS`, or a wrong shape.
// Shapes are exact: a missing field, a wrong type or an unknown key is a `shape` failure.
import { resolveConfig } from '../../../engine/index.ts'
import { isRecord, errorText } from '../../../engine/safe-reading.ts'
import { WIRE_FORMATS } from '../../../engine/wire/index.ts'
import { AGENT_KINDS, AGENT_REACHES, LIMITS, PROTOCOL_VERSION, WITHHELD_REASONS, type InspectorEvent, type InspectorEventType } from './events.ts'
import {
  CONTENT_SOURCE,
  PAGE_SOURCE,
  type BackgroundToContent,
  type BackgroundToPanel,
  type BackgroundToPopup,
  type BackgroundToRelay,
  type ContentToBackground,
  type ContentToPage,
  type DropReason,
  type PageToContent,
  type PanelToBackground,
  type PopupToBackground,
  type TabSummary,
  MAX_STREAM_CHARS,
  MAX_SUMMARY_AGENTS,
} from './messages.ts'
import { approxSize } from './size.ts'
import { ZERO_CODE_MODES } from './zero-code-mode.ts'
import { isFrameOrigin } from './frame-origin.ts'

type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: DropReason; readonly detail: string }

/** Room for a message's envelope (tag, kind, version, url) on top of its events' `LIMITS.batchBytes`. */
const ENVELOPE_BYTES = 4_096
const BATCH_BYTES = LIMITS.batchBytes + ENVELOPE_BYTES
/** Messages that carry no events (subscribe, resync). */
const SMALL_BYTES = 1_024

class Rejection {
  constructor(
    readonly reason: DropReason,
    readonly detail: string,
  ) {}
}

function reject(reason: DropReason, detail: string): never {
  throw new Rejection(reason, detail)
}

type Check = (value: unknown, path: string) => void

const text =
  (max: number, min = 0): Check =>
  (value, path) => {
    if (typeof value !== 'string') reject('shape', `${path} must be a string`)
    if (value.length > max) reject('size', `${path} is longer than ${max} characters`)
    if (value.length < min) reject('shape', `${path} must not be empty`)
  }

const natural: Check = (value, path) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    reject('shape', `${path} must be a non-negative integer`)
}

const time: Check = (value, path) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    reject('shape', `${path} must be a timestamp`)
}

const flag: Check = (value, path) => {
  if (typeof value !== 'boolean') reject('shape', `${path} must be a boolean`)
}

/** A marker field: present only as `true`. */
const isTrue: Check = (value, path) => {
  if (value !== true) reject('shape', `${path} must be true when present`)
}

// For the checks built when this module loads: spreading a list into `oneOf` there would read the
// page-replaceable iterator, and the page script loads this module only on first use.
const oneOfList =
  (values: readonly string[]): Check =>
  (value, path) => {
    if (typeof value !== 'string' || !values.includes(value)) reject('shape', `${path} must be one of ${values.join(', ')}`)
  }

const oneOf = (...values: readonly string[]): Check => oneOfList(values)

const orNull =
  (check: Check): Check =>
  (value, path) => {
    if (value !== null) check(value, path)
  }

const agentId: Check = (value, path) => {
  text(LIMITS.label, 1)(value, path)
  if (!/^(hook|wire|webmcp):/.test(value as string)) reject('shape', `${path} must start with hook:, wire: or webmcp:`)
}

const list =
  (item: Check, max = Number.POSITIVE_INFINITY): Check =>
  (value, path) => {
    if (!Array.isArray(value)) reject('shape', `${path} must be an array`)
    if (value.length > max) reject('size', `${path} holds more than ${max} entries`)
    for (let i = 0; i < value.length; i++) item(value[i], `${path}[${i}]`)
  }

/** An object with exactly these keys; an optional key may also be present as `undefined`. */
const record =
  (required: Readonly<Record<string, Check>>, optional: Readonly<Record<string, Check>> = {}): Check =>
  (value, path) => {
    if (!isRecord(value)) reject('shape', `${path} must be an object`)
    for (const key of Object.keys(value)) {
      const check = required[key] ?? optional[key]
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) reject('shape', `${path}.${key} is not expected`)
      if (Object.hasOwn(optional, key) && value[key] === undefined) continue
      check!(value[key], `${path}.${key}`)
    }
    for (const key of Object.keys(required)) if (!Object.hasOwn(value, key)) reject('shape', `${path}.${key} is missing`)
  }

/** Picks the check by the value of `key` (`type`, `kind`), so every variant is checked exactly. */
const variants =
  (key: string, checks: Readonly<Record<string, Check>>): Check =>
  (value, path) => {
    if (!isRecord(value)) reject('shape', `${path} must be an object`)
    const tag = value[key]
    if (typeof tag !== 'string' || !Object.hasOwn(checks, tag)) reject('shape', `${path}.${key} is not a known ${key}`)
    checks[tag]!(value, path)
  }

const both =
  (...checks: readonly Check[]): Check =>
  (value, path) => {
    for (const check of checks) check(value, path)
  }

/** A field checked before the record is (the variant tag; the envelope's tag and version). */
const checkedBefore: Check = () => {}

const numbers = list((v, p) => typeof v === 'number' || reject('shape', `${p} must be a number`))
const countBy = oneOf('call', 'tool')

const guardConfig: Check = both(
  record(
    {
      thresholds: numbers,
      include: list(text(LIMITS.text)),
      exclude: list(text(LIMITS.text)),
      argumentsPreviewChars: natural,
    },
    {
      countBy,
      resultAware: flag,
      ignoreResultKeys: list(text(LIMITS.text)),
      cycles: record({ maxPeriod: natural, repeats: natural }),
      stopAfter: natural,
      tools: list(
        record(
          { match: text(LIMITS.text) },
          { thresholds: numbers, countBy, resultAware: flag, stopAfter: orNull(natural) },
        ),
      ),
    },
  ),
  (value, path) => {
    try {
      resolveConfig(value)
    } catch (error) {
      reject('shape', `${path}: ${errorText(error)}`)
    }
  },
)

const descriptorFields = { id: agentId, kind: oneOfList(AGENT_KINDS), label: text(LIMITS.label) }
const descriptorOptional = { parentId: agentId, format: oneOfList(WIRE_FORMATS), reach: oneOfList(AGENT_REACHES) }
const toolName = text(LIMITS.toolName, 1)

const agentState = record(
  { ...descriptorFields, count: natural, nextThreshold: orNull(natural) },
  { ...descriptorOptional, tool: toolName, args: text(LIMITS.args) },
)

const EVENTS: Readonly<Record<InspectorEventType, Check>> = {
  agent: record({ type: checkedBefore, at: time, agent: record(descriptorFields, descriptorOptional) }),
  call: both(
    record({
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
    }, { result: text(LIMITS.result), resultLength: natural }),
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
      { type: checkedBefore, at: time, agentId, seq: natural, tool: toolName, count: natural, level: oneOf('gentle', 'detailed', 'cycle'), text: text(LIMITS.text, 1) },
      { placement: text(LIMITS.label), textLength: natural, withheld: oneOfList(WITHHELD_REASONS), detector: oneOf('repeat', 'same-tool', 'cycle') },
    ),
    (value, path) => {
      // Present only when the text was cut: then the true length exceeds what is carried.
      const { text: carried, textLength, placement, withheld } = value as { text: string; textLength?: number; placement?: string; withheld?: string }
      if (textLength !== undefined && textLength <= carried.length) reject('shape', `${path}.textLength is not longer than its text`)
      if (withheld !== undefined && placement === undefined) reject('shape', `${path}.withheld needs the placement it would have had`)
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
    },
  ),
  blocked: record({ type: checkedBefore, at: time, agentId, tool: toolName, count: natural, feedback: text(LIMITS.text, 1) }, { wouldBlock: isTrue }),
  config: record({ type: checkedBefore, at: time, config: guardConfig }),
  fault: record({ type: checkedBefore, at: time, message: text(LIMITS.text) }),
  snapshot: record({ type: checkedBefore, at: time, agents: list(agentState), config: guardConfig }),
  'page-load': record({ type: checkedBefore, at: time, url: text(LIMITS.url) }),
}

const inspectorEvent = variants('type', EVENTS)
const events = list(inspectorEvent, LIMITS.eventsPerBatch)

const dropCounts = record({}, { source: natural, version: natural, shape: natural, size: natural, sender: natural, rate: natural })

const frameOrigin: Check = (value, path) => {
  text(LIMITS.url, 1)(value, path)
  if (!isFrameOrigin(value as string)) reject('shape', `${path} must be an origin (scheme://host[:port], file:// or null)`)
}

const tabBatch = both(
  (value, path) => {
    if (approxSize(value, BATCH_BYTES) > BATCH_BYTES) reject('size', `${path} is larger than ${LIMITS.batchBytes} bytes`)
  },
  record({ frameId: natural, url: text(LIMITS.url), origin: frameOrigin, events }),
)

/** Runs `body`, turning a rejection (or the throw of an exotic object) into a drop. */
function attempt<T>(value: unknown, body: () => void): Checked<T> {
  try {
    body()
    return { ok: true, value: value as T }
  } catch (error) {
    if (error instanceof Rejection) return { ok: false, reason: error.reason, detail: error.detail }
    // Only reachable through a proxy or a throwing getter: never a valid message.
    return { ok: false, reason: 'shape', detail: errorText(error) }
  }
}

/** Runs the checks in drop order: tag, version, size, shape. */
function run<T>(value: unknown, check: Check, options: { tag?: string; maxBytes: number }): Checked<T> {
  return attempt(value, () => {
    if (!isRecord(value)) reject('shape', 'the message must be an object')
    if (options.tag !== undefined && value.source !== options.tag) reject('source', `the message is not tagged ${options.tag}`)
    if (value.v !== PROTOCOL_VERSION) reject('version', `protocol version ${String(value.v)} is not ${PROTOCOL_VERSION}`)
    if (approxSize(value, options.maxBytes) > options.maxBytes) reject('size', `the message is larger than ${options.maxBytes} bytes`)
    check(value, '$')
  })
}


export function checkPageToContent(data: unknown): Checked<PageToContent> {
  const check = variants('kind', {
    events: record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore, events }),
    drops: record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore, drops: dropCounts }),
  })
  return run(data, check, { tag: PAGE_SOURCE, maxBytes: BATCH_BYTES })
}

export function checkContentToPage(data: unknown): Checked<ContentToPage> {
  const check = variants('kind', {
    config: record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore, config: guardConfig }),
    resync: record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore }),
    'zero-code': record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore, mode: oneOfList(ZERO_CODE_MODES) }),
  })
  return run(data, check, { tag: CONTENT_SOURCE, maxBytes: BATCH_BYTES })
}

const sequence = { stream: text(MAX_STREAM_CHARS, 1), seq: natural }

export function checkContentToBackground(message: unknown): Checked<ContentToBackground> {
  const check = variants('kind', {
    events: record({ v: checkedBefore, kind: checkedBefore, url: text(LIMITS.url), events, ...sequence }, { resent: isTrue }),
    drops: record({ v: checkedBefore, kind: checkedBefore, drops: dropCounts, ...sequence }, { resent: isTrue }),
  })
  return run(message, check, { maxBytes: BATCH_BYTES })
}

export function checkBackgroundToContent(message: unknown): Checked<BackgroundToContent> {
  return run(message, record({ v: checkedBefore, kind: oneOf('resync') }), { maxBytes: SMALL_BYTES })
}

export function checkBackgroundToRelay(message: unknown): Checked<BackgroundToRelay> {
  const check = variants('kind', {
    resync: record({ v: checkedBefore, kind: checkedBefore }),
    ack: record({ v: checkedBefore, kind: checkedBefore, seq: natural }),
  })
  return run(message, check, { maxBytes: SMALL_BYTES })
}

export function checkPanelToBackground(message: unknown): Checked<PanelToBackground> {
  return run(message, record({ v: checkedBefore, kind: oneOf('subscribe'), tabId: natural }), { maxBytes: SMALL_BYTES })
}

/** For the panel: a history may hold many batches, so each batch is capped, not the message. */
export function checkBackgroundToPanel(message: unknown): Checked<BackgroundToPanel> {
  const check = variants('kind', {
    history: record({ v: checkedBefore, kind: checkedBefore, tabId: natural, batches: list(tabBatch), truncated: flag }),
    batch: record({ v: checkedBefore, kind: checkedBefore, tabId: natural, batch: tabBatch }, { replayed: isTrue }),
    drops: record({ v: checkedBefore, kind: checkedBefore, tabId: natural, drops: dropCounts }),
  })
  return run(message, check, { maxBytes: Number.POSITIVE_INFINITY })
}

/** One inspector event on its own (the panel's session import). */
export function checkInspectorEvent(value: unknown): Checked<InspectorEvent> {
  return attempt(value, () => {
    if (approxSize(value, LIMITS.batchBytes) > LIMITS.batchBytes) reject('size', `the event is larger than ${LIMITS.batchBytes} bytes`)
    inspectorEvent(value, '$')
  })
}

export function checkPopupToBackground(message: unknown): Checked<PopupToBackground> {
  return run(message, record({ v: checkedBefore, kind: oneOf('tab-summary'), tabId: natural }), { maxBytes: SMALL_BYTES })
}

const tabSummary = record({
  pageUrl: orNull(text(LIMITS.url)),
  pageOrigin: orNull(frameOrigin),
  agents: list(record(descriptorFields, { reach: descriptorOptional.reach }), MAX_SUMMARY_AGENTS),
  reminders: natural,
  observed: natural,
})

/** A summary the service worker kept in session storage, read back after a restart. */
export function checkTabSummary(value: unknown): Checked<TabSummary> {
  return attempt(value, () => tabSummary(value, '$'))
}

/** For the popup: the service worker's summary of a tab. */
export function checkBackgroundToPopup(message: unknown): Checked<BackgroundToPopup> {
  const check = record({ v: checkedBefore, kind: oneOf('tab-summary'), tabId: natural, summary: tabSummary })
  return run(message, check, { maxBytes: Number.POSITIVE_INFINITY })
}
