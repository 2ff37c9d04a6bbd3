import { arrayPop, arrayPush, isArray, objectKeys } from '../../../engine/intrinsics.ts'

/**
 * A cheap estimate of how large `value` is once serialised (roughly its JSON length), used to cap
 * batches. Walks iteratively (a hostile payload may nest deeply) and stops as soon as the total
 * passes `budget`, so a huge payload costs no more than the budget to reject.
 */
export function approxSize(value: unknown, budget = Number.POSITIVE_INFINITY): number {
  let total = 0
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const item = arrayPop(pending)
    switch (typeof item) {
      case 'string':
        total += item.length + 2
        break
      case 'number':
        total += 8
        break
      case 'object':
        if (item === null) {
          total += 4
        } else if (isArray(item)) {
          total += 2 + item.length
          if (total > budget) return total
          for (let i = 0; i < item.length; i++) arrayPush(pending, item[i])
        } else {
          const keys = objectKeys(item)
          total += 2
          for (let i = 0; i < keys.length; i++) {
            total += keys[i].length + 4
            if (total > budget) return total
            arrayPush(pending, (item as Record<string, unknown>)[keys[i]])
          }
        }
        break
      default:
        // booleans, undefined and anything a structured clone cannot carry anyway
        total += 5
    }
    if (total > budget) return total
  }
  return total
}
