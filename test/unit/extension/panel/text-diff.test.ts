// The word diff a near-repeat reminder's two argument texts are shown with (docs/panel.md).
import { describe, expect, it } from 'vitest'
import { diffTexts, type DiffPart } from '../../../../extension/src/panel/components/text-diff.ts'

/** A side as text, its changed parts in brackets. */
const marked = (parts: readonly DiffPart[]) => parts.map((part) => (part.changed ? `[${part.text}]` : part.text)).join('')

describe('diffTexts', () => {
  it('marks the words one call has and the other does not', () => {
    const { before, after } = diffTexts('{"q":"how do I configure auth"}', '{"q":"configure auth"}')
    expect(marked(before)).toBe('{"q":"[how do I ]configure auth"}')
    expect(marked(after)).toBe('{"q":"configure auth"}')
  })

  it('marks replaced words on both sides and keeps what lies between them', () => {
    const { before, after } = diffTexts('a b c d e', 'a x c y e')
    expect(marked(before)).toBe('a [b] c [d] e')
    expect(marked(after)).toBe('a [x] c [y] e')
  })

  it('keeps the shared space of two reworded words, marking the words', () => {
    const { before, after } = diffTexts('{"q":"auth configuration"}', '{"q":"configure auth"}')
    expect(marked(before)).toBe('{"q":"[auth] [configuration]"}')
    expect(marked(after)).toBe('{"q":"[configure] [auth]"}')
  })

  it('marks nothing in equal texts, and all of a text facing an empty one', () => {
    expect(diffTexts('same text', 'same text')).toEqual({ before: [{ text: 'same text', changed: false }], after: [{ text: 'same text', changed: false }] })
    expect(diffTexts('', 'x y')).toEqual({ before: [], after: [{ text: 'x y', changed: true }] })
  })

  it('past its cap on edits, marks the whole middle between the shared head and tail', () => {
    const { before, after } = diffTexts('<a b c d>', '<q b s d>', 2)
    expect(marked(before)).toBe('<[a b c] d>')
    expect(marked(after)).toBe('<[q b s] d>')
  })

  it('stays fast on two unrelated texts of 4,000 characters', () => {
    const words = (seed: number) => Array.from({ length: 800 }, (_, i) => `w${(i * seed) % 997}`).join(' ')
    const started = performance.now()
    const { before } = diffTexts(words(7), words(13))
    expect(performance.now() - started).toBeLessThan(500)
    expect(before.some((part) => part.changed)).toBe(true)
  })
})
