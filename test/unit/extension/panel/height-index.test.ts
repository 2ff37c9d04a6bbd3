import { describe, expect, it } from 'vitest'
import { HeightIndex } from '../../../../extension/src/panel/components/height-index.ts'

/** The same answers computed the slow way. */
function reference(sizes: Map<number, number>, start: number, end: number) {
  const offset = (row: number) => {
    let sum = 0
    for (let r = start; r < row; r++) sum += sizes.get(r)!
    return sum
  }
  const rowAt = (y: number) => {
    let sum = 0
    for (let r = start; r < end; r++) {
      sum += sizes.get(r)!
      if (sum > y) return r
    }
    return end - 1
  }
  return { offset, rowAt, total: offset(end) }
}

describe('HeightIndex', () => {
  it('answers offsets and positions like a plain sum, through appends, updates and drops', () => {
    const index = new HeightIndex(100)
    const sizes = new Map<number, number>()
    let start = 100
    let end = 100
    let seed = 7
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    for (let step = 0; step < 4000; step++) {
      const roll = random()
      if (roll < 0.6) {
        const size = 10 + Math.floor(random() * 50)
        index.push(size)
        sizes.set(end++, size)
      } else if (roll < 0.8 && end > start) {
        const row = start + Math.floor(random() * (end - start))
        const size = 5 + Math.floor(random() * 80)
        index.set(row, size)
        sizes.set(row, size)
      } else if (end > start) {
        const to = start + Math.floor(random() * Math.min(40, end - start))
        index.dropBefore(to)
        start = Math.max(start, to)
      }
      if (step % 97 === 0 && end > start) {
        const ref = reference(sizes, start, end)
        expect(index.total()).toBe(ref.total)
        for (const row of [start, Math.floor((start + end) / 2), end - 1, end]) expect(index.offset(row)).toBe(ref.offset(row))
        for (const y of [0, ref.total / 3, ref.total - 1, ref.total + 100]) expect(index.rowAt(y)).toBe(ref.rowAt(y))
      }
    }
    expect(index.start).toBe(start)
    expect(index.end).toBe(end)
  })

  it('reports the height of the rows it drops', () => {
    const index = new HeightIndex()
    index.pushAll(Array.from({ length: 5000 }, (_, i) => (i % 2 === 0 ? 20 : 40)))
    expect(index.total()).toBe(150_000)
    expect(index.dropBefore(10)).toBe(300)
    expect(index.offset(10)).toBe(0)
    expect(index.rowAt(0)).toBe(10)
    expect(index.rowAt(25)).toBe(11)
  })

  it('has no row to find when empty', () => {
    expect(new HeightIndex().rowAt(0)).toBeUndefined()
  })
})
