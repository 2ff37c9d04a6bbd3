// Where inserted reminders end up in the rewritten body, named for the panel (`messages[7]`,
// `messages[5].content[2]`).
import type { JsonInsertion } from './json-splice.ts'
import type { InsertionPoint } from './types.ts'

/** A reminder insertion, with the index of the conversation item it follows. */
export interface Planned extends JsonInsertion {
  readonly item: number
}

/**
 * Each inserted reminder's place, by item. Items come in body order, so the insertions made
 * earlier into the same array are the ones that push a later one down.
 */
export function placementsOf(planned: readonly Planned[]): Map<number, string[]> {
  const shifts = new Map<string, number>()
  const placements = new Map<number, string[]>()
  for (const { item, at, values } of planned) {
    const array = at.path.join('\u0000')
    const shift = shifts.get(array) ?? 0
    shifts.set(array, shift + values.length)
    placements.set(
      item,
      values.map((_, j) => placementName(at, at.index + shift + j)),
    )
  }
  return placements
}

function placementName({ path }: InsertionPoint, index: number): string {
  return `${path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('')}[${index}]`
}
