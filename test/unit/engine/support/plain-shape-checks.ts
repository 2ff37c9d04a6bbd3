// What the shape walk's tests share: a shape the test expects kept, a match checked against the
// canonical forms, prototypes a test may pollute and their cleanup, a throwing getter, and nested
// arrays.
import { expect } from 'vitest'
import { canonicalArguments } from '../../../../engine/index.ts'
import { matchesShape, shapeOf, type PlainShape } from '../../../../engine/plain-shape.ts'

/** The shape of `value`, which the test expects to be kept, and which `value` reads as. */
export function kept(value: unknown): PlainShape {
  const shape = shapeOf(value)
  expect(shape).toBeDefined()
  expect(matchesShape(value, shape!)).toBe(true)
  return shape!
}

/** Whether `value` matches the shape of `run`, checked against the canonical forms first. */
export function decides(run: unknown, value: unknown): boolean {
  const matched = matchesShape(value, kept(run))
  // A match is exact: never "same" where the canonical forms differ.
  if (matched) expect(canonicalArguments(value)).toBe(canonicalArguments(run))
  return matched
}

export const inherited = Object.prototype as Record<string, unknown>

export const arrayInherited = Array.prototype as unknown as Record<string, unknown>

/** Takes off what a test put on Object.prototype or Array.prototype; each test file runs it after each test. */
export function restorePrototypes(): void {
  delete inherited.polluted
  delete inherited.toJSON
  delete inherited.length
  delete arrayInherited.toJSON
}

export const fails = () => {
  throw new Error('read')
}

/** `levels` arrays, each in the one before: the innermost is empty. */
export function nestedArrays(levels: number): unknown[] {
  let value: unknown[] = []
  for (let level = levels; level > 1; level--) value = [value]
  return value
}
