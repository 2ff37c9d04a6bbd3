// The messages between a Node process's bridge and its panels (bridge-messages.ts), checked like
// every other hop's: tag, version, size, exact shape. The config a panel sends is checked by the
// engine's resolveConfig before the process applies it (config-check.ts).
import { LIMITS } from './events.ts'
import type { BridgeToClient, ClientToBridge } from './bridge-messages.ts'
import { MAX_TITLE_CHARS } from './bridge-messages.ts'
import { checkedBefore, isTrue, natural, oneOf, record, reject, text, variants, type Check } from './check-shapes.ts'
import { BATCH_BYTES, type Checked, run } from './check-run.ts'
import { guardConfig } from './config-check.ts'
import { events, panelEvent } from './event-checks.ts'

/** A config message: a config's fields as text, far below a batch. */
export const CONFIGURE_BYTES = 256 * 1024

const processInfo = record({ pid: natural, node: text(64, 1), title: text(MAX_TITLE_CHARS) })

const snapshotEvent: Check = (value, path) => {
  panelEvent(value, path)
  if ((value as { type: string }).type !== 'snapshot') reject('shape', `${path} must be a snapshot event`)
}

export function checkBridgeToClient(message: unknown): Checked<BridgeToClient> {
  const check = variants('kind', {
    hello: record({ v: checkedBefore, kind: checkedBefore, process: processInfo, snapshot: snapshotEvent }),
    events: record({ v: checkedBefore, kind: checkedBefore, events }, { history: isTrue, truncated: isTrue }),
    refused: record({ v: checkedBefore, kind: checkedBefore, reason: text(LIMITS.text) }),
  })
  return run(message, check, { maxBytes: BATCH_BYTES })
}

export function checkClientToBridge(message: unknown): Checked<ClientToBridge> {
  return run(message, record({ v: checkedBefore, kind: oneOf('configure'), config: guardConfig }), { maxBytes: CONFIGURE_BYTES })
}
