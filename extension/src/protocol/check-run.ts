// How a message validator runs its checks (validate.ts): the drop order, the byte budgets, and the
// turning of a rejection into a drop the receiving hop counts by reason.
import { errorText, isRecord } from '../../../engine/safe-reading.ts'
import { LIMITS, PROTOCOL_VERSION } from './events.ts'
import type { DropReason } from './messages.ts'
import { type Check, Rejection, reject } from './check-shapes.ts'
import { approxSize } from './size.ts'

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: DropReason; readonly detail: string }

/** Room for a message's envelope (tag, kind, version, url) on top of its events' `LIMITS.batchBytes`. */
const ENVELOPE_BYTES = 4_096
export const BATCH_BYTES = LIMITS.batchBytes + ENVELOPE_BYTES
/** Messages that carry no events (subscribe, resync). */
export const SMALL_BYTES = 1_024

/** Runs `body`, turning a rejection (or the throw of an exotic object) into a drop. */
export function attempt<T>(value: unknown, body: () => void): Checked<T> {
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
export function run<T>(value: unknown, check: Check, options: { tag?: string; maxBytes: number }): Checked<T> {
  return attempt(value, () => {
    if (!isRecord(value)) reject('shape', 'the message must be an object')
    if (options.tag !== undefined && value.source !== options.tag) reject('source', `the message is not tagged ${options.tag}`)
    if (value.v !== PROTOCOL_VERSION) reject('version', `protocol version ${String(value.v)} is not ${PROTOCOL_VERSION}`)
    if (approxSize(value, options.maxBytes) > options.maxBytes) reject('size', `the message is larger than ${options.maxBytes} bytes`)
    check(value, '$')
  })
}
