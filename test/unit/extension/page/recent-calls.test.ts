import { describe, expect, it } from 'vitest'
import { createRecentCalls } from '../../../../extension/src/page/recent-calls.ts'

describe('recent hook calls', () => {
  it('knows a pair once added, by tool and arguments both', () => {
    const recent = createRecentCalls()
    recent.add('grep', '{"q":"x"}')
    expect(recent.has('grep', '{"q":"x"}')).toBe(true)
    expect(recent.has('grep', '{"q":"y"}')).toBe(false)
    expect(recent.has('read', '{"q":"x"}')).toBe(false)
    // Where the tool name ends and the arguments start is never ambiguous.
    recent.add('ab', 'c')
    expect(recent.has('a', 'bc')).toBe(false)
  })

  it('forgets the stalest pair past the entry cap; a repeat sighting refreshes it', () => {
    const recent = createRecentCalls(3)
    for (const tool of ['a', 'b', 'c']) recent.add(tool, '{}')
    recent.add('a', '{}')
    recent.add('d', '{}')
    expect(['a', 'b', 'c', 'd'].map((t) => recent.has(t, '{}'))).toEqual([true, false, true, true])
  })

  it('holds a bounded number of characters', () => {
    const recent = createRecentCalls(1_000, 100)
    recent.add('w', 'x'.repeat(60))
    recent.add('w', 'y'.repeat(60))
    expect(recent.has('w', 'x'.repeat(60))).toBe(false)
    expect(recent.has('w', 'y'.repeat(60))).toBe(true)
  })
})
