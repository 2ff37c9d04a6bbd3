// A wire agent's repeated-answer reminders for one request: read only while `repeatedText` is on,
// or once it has given a reminder (which every later request carries again).
import type { GuardConfig } from '../../types.ts'
import type { Planned } from '../placements.ts'
import type { InsertionPoint, JsonObject, WireFormatAdapter } from '../types.ts'
import type { WireAgent } from '../wire-agent.ts'
import { answersOf } from './answers.ts'
import { answerReminders, type FiredAnswer, newAnswerMemory } from './repeated-answers.ts'

export interface AnswerRequest {
  readonly adapter: WireFormatAdapter
  readonly history: JsonObject
  readonly place: (at: InsertionPoint) => InsertionPoint | undefined
  readonly seen: (text: string) => { readonly at: number; readonly tokens?: number } | undefined
  readonly now: number
}

const NOTHING = { planned: [] as Planned[], fired: [] as FiredAnswer[] }

export function answersFor(agent: WireAgent, config: GuardConfig, request: AnswerRequest): { planned: Planned[]; fired: FiredAnswer[] } {
  const after = config.repeatedText?.after
  if (after === undefined && agent.answers === undefined) return NOTHING
  agent.answers ??= newAnswerMemory()
  return answerReminders(agent.answers, { ...request, answers: answersOf(request.adapter.format, request.history), after })
}

/** Tool and answer insertions together, each array's in body order (placements.ts counts on it). */
export function inBodyOrder(planned: readonly Planned[]): Planned[] {
  const arrays = new Map<string, Planned[]>()
  for (const insertion of planned) {
    const array = insertion.at.path.join('\u0000')
    const same = arrays.get(array)
    if (same) same.push(insertion)
    else arrays.set(array, [insertion])
  }
  return [...arrays.values()].flatMap((same) => same.sort((a, b) => a.at.index - b.at.index))
}
