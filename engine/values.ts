import { isArray } from './intrinsics.ts'

/** A non-null, non-array object: what a JSON object (or a message, a config) must be before its keys are read. */
export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !isArray(value)
