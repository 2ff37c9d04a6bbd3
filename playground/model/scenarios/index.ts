// Every scenario, in the order the picker shows them; the first is the one a newcomer runs.
import type { Scenario } from '../scenario.ts'
import { bookkeeping } from './bookkeeping.ts'
import { denied } from './denied.ts'
import { flakyTool } from './flaky-tool.ts'
import { keyOrder } from './key-order.ts'
import { paging } from './paging.ts'
import { parallel } from './parallel.ts'
import { pingPong } from './ping-pong.ts'
import { polling } from './polling.ts'
import { rephrase } from './rephrase.ts'
import { replay5 } from './replay-5.ts'
import { rotation } from './rotation.ts'
import { runaway } from './runaway.ts'
import { sameAnswer } from './same-answer.ts'
import { stubborn } from './stubborn.ts'
import { subagent } from './subagent.ts'
import { volatileId } from './volatile-id.ts'

export const SCENARIOS: readonly Scenario[] = [
  replay5,
  bookkeeping,
  subagent,
  parallel,
  denied,
  polling,
  stubborn,
  keyOrder,
  pingPong,
  rotation,
  paging,
  runaway,
  rephrase,
  volatileId,
  flakyTool,
  sameAnswer,
]

export function findScenario(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id === id)
}
