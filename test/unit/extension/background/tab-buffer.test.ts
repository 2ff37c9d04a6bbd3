import { describe, expect, it } from 'vitest'
import { createTabBuffer } from '../../../../extension/src/background/tab-buffer.ts'
import { approxSize } from '../../../../extension/src/protocol/size.ts'
import { call, tabBatch } from '../support/samples.ts'

const batchOf = (n: number, tool = 'grep') => tabBatch(Array.from({ length: n }, (_, i) => call(tool, i + 1)))
const tools = (buffer: ReturnType<typeof createTabBuffer>) => buffer.batches().map((b) => (b.events[0]?.type === 'call' ? b.events[0].tool : ''))

describe('the per-tab buffer', () => {
  it('starts empty and keeps batches in order', () => {
    const buffer = createTabBuffer({ maxEvents: 100, maxBytes: 1e9 })
    expect(buffer.empty).toBe(true)
    buffer.append(batchOf(1, 'a'))
    buffer.append(batchOf(1, 'b'))
    expect(tools(buffer)).toEqual(['a', 'b'])
    expect(buffer.empty).toBe(false)
    expect(buffer.truncated).toBe(false)
  })

  it('trims the oldest batches first once over the event cap, and says so', () => {
    const buffer = createTabBuffer({ maxEvents: 10, maxBytes: 1e9 })
    for (const tool of ['a', 'b', 'c', 'd']) buffer.append(batchOf(4, tool))
    expect(tools(buffer)).toEqual(['c', 'd'])
    expect(buffer.truncated).toBe(true)
  })

  it('trims by bytes too', () => {
    const one = approxSize(batchOf(1))
    const buffer = createTabBuffer({ maxEvents: 1e9, maxBytes: one * 3 })
    for (const tool of ['a', 'b', 'c', 'd', 'e']) buffer.append(batchOf(1, tool))
    expect(tools(buffer)).toEqual(['c', 'd', 'e'])
    expect(buffer.truncated).toBe(true)
  })

  it('always keeps the newest batch, even alone over the caps', () => {
    const buffer = createTabBuffer({ maxEvents: 2, maxBytes: 10 })
    buffer.append(batchOf(1, 'a'))
    buffer.append(batchOf(5, 'big'))
    expect(tools(buffer)).toEqual(['big'])
  })
})
