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
    const path = shiftedPath(at.path, planned)
    placements.set(
      item,
      values.map((_, j) => placementName(path, at.index + shift + j)),
    )
  }
  return placements
}

/**
 * A path through array elements as the rewritten body has them: an insertion into an array before
 * an element the path goes through pushes it down (`messages[5].content` after a reminder went into
 * `messages` before 5 is `messages[6].content`).
 */
function shiftedPath(path: InsertionPoint['path'], planned: readonly Planned[]): InsertionPoint['path'] {
  return path.map((step, depth) => {
    if (typeof step !== 'number') return step
    let shifted = step
    for (const { at, values } of planned) {
      if (at.path.length === depth && at.index <= step && at.path.every((part, i) => part === path[i])) shifted += values.length
    }
    return shifted
  })
}

function placementName(path: InsertionPoint['path'], index: number): string {
  return `${path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('')}[${index}]`
}
