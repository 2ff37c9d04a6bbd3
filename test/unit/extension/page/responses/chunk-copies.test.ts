// The copies of a watched body's chunks (chunk-copies.ts): written one after the other into one
// kept buffer while steps wait to read them, each unchanged until then; written again from the
// buffer's start once no step waits; a buffer too small for what waits is left to the waiting
// copies; a chunk larger than the most kept is copied on its own.
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'
import { captureBodyNatives } from '../../../../../extension/src/page/responses/body-natives.ts'
import { createChunkCopies, MAX_KEPT_BYTES } from '../../../../../extension/src/page/responses/chunk-copies.ts'
import { STREAMS } from './page-streams.ts'

// A realm of their own, as the page's: the copies are its Uint8Arrays, the chunks this realm's.
const natives = captureBodyNatives(vm.runInContext('globalThis', vm.createContext({ ...STREAMS })) as typeof globalThis)!

/** Copies made with a queue that is idle when `waiting.value` is false. */
function copies() {
  const waiting = { value: false }
  return { waiting, copies: createChunkCopies(natives, () => !waiting.value) }
}

const bytes = (length: number, fill: number): Uint8Array => new Uint8Array(length).fill(fill)

describe('the copies of the chunks', () => {
  test('copies made while steps wait lie side by side in one buffer, each unchanged by the next', () => {
    const { waiting, copies: made } = copies()
    waiting.value = true
    const one = made.copy(bytes(10, 1))
    const two = made.copy(bytes(20, 2))
    expect([...one]).toEqual(Array(10).fill(1))
    expect([...two]).toEqual(Array(20).fill(2))
    expect(two.buffer).toBe(one.buffer)
    expect([one.byteOffset, two.byteOffset]).toEqual([0, 10])
  })

  test('once no step waits, the next copy is written from the start of the same buffer', () => {
    const { waiting, copies: made } = copies()
    waiting.value = true
    const one = made.copy(bytes(10, 1))
    waiting.value = false
    const two = made.copy(bytes(20, 2))
    expect(two.buffer).toBe(one.buffer)
    expect(two.byteOffset).toBe(0)
    expect([...two]).toEqual(Array(20).fill(2))
  })

  test('a copy a waiting step holds stays as it was when the kept buffer has no room left: a larger one is made', () => {
    const { waiting, copies: made } = copies()
    waiting.value = true
    const one = made.copy(bytes(60 * 1024, 1))
    const two = made.copy(bytes(10 * 1024, 2))
    expect(two.buffer).not.toBe(one.buffer)
    expect(two.buffer.byteLength).toBeGreaterThan(one.buffer.byteLength)
    expect(one.every((byte) => byte === 1)).toBe(true)
    expect(two.every((byte) => byte === 2)).toBe(true)
  })

  test('a chunk larger than the most kept is copied on its own, and the kept buffer stays', () => {
    const { copies: made } = copies()
    const small = made.copy(bytes(8, 1))
    const large = bytes(MAX_KEPT_BYTES + 1, 3)
    const copy = made.copy(large)
    expect(copy.buffer).not.toBe(large.buffer)
    expect(copy.byteLength).toBe(MAX_KEPT_BYTES + 1)
    expect(copy[0] === 3 && copy[MAX_KEPT_BYTES] === 3).toBe(true)
    expect(made.copy(bytes(8, 4)).buffer).toBe(small.buffer)
  })

  test('a copy is its own bytes: the chunk changed afterwards leaves it as it was', () => {
    const { copies: made } = copies()
    const chunk = bytes(4, 5)
    const copy = made.copy(chunk)
    chunk.fill(9)
    expect([...copy]).toEqual([5, 5, 5, 5])
  })

  test('a chunk whose buffer is gone cannot be copied: the copy throws', () => {
    const { copies: made } = copies()
    const chunk = bytes(4, 5)
    structuredClone(chunk.buffer, { transfer: [chunk.buffer] })
    expect(() => made.copy(chunk)).toThrow()
  })
})
