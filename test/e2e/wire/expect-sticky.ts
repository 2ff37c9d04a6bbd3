// What every looping agent's requests must show, whatever carried them (fetch, XHR...): the gentle
// reminder after the third result and the detailed one after the fifth, each at its exact place, in
// every later request, exactly once; and each request starting with the whole history the previous
// one sent.
import { expect } from 'vitest'
import { historyOf, occurrences, reminderTextOf, valueAt } from '../../fixtures/wire/placements.ts'
import type { Exchange } from '../support/mock-llm.ts'

type Body = Record<string, unknown>

const bodiesOf = (exchanges: readonly Exchange[]): Body[] => exchanges.map((e) => JSON.parse(e.body) as Body)

/** `places`: where each reminder sits in the request body (`messages[8]`, `contents[7]`...). */
export function expectRemindersOnceInPlace(
  exchanges: readonly Exchange[],
  places: { readonly gentle: string; readonly detailed: string },
  texts: { readonly gentle: string; readonly detailed: string },
): void {
  bodiesOf(exchanges).forEach((body, n) => {
    const text = exchanges[n]!.body
    expect(occurrences(text, texts.gentle)).toBe(n >= 3 ? 1 : 0)
    expect(occurrences(text, texts.detailed)).toBe(n >= 5 ? 1 : 0)
    if (n >= 3) expect(reminderTextOf(valueAt(body, places.gentle))).toBe(texts.gentle)
    if (n >= 5) expect(reminderTextOf(valueAt(body, places.detailed))).toBe(texts.detailed)
  })
}

export function expectAppendOnly(exchanges: readonly Exchange[]): void {
  const all = bodiesOf(exchanges)
  for (let n = 1; n < all.length; n++) {
    const before = historyOf(all[n - 1]!)
    expect(historyOf(all[n]!).slice(0, before.length)).toEqual(before)
  }
}
