// Telling an object record apart from every other value, and reading one out of JSON text.
import { isArray, jsonParse } from './intrinsics.ts'

/** A non-null, non-array object: what a JSON object (or a message, a config) must be before its keys are read. */
export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !isArray(value)

/** The object a JSON text holds; undefined when the text is not JSON or holds anything but an object. */
export function parseRecord(text: string): Readonly<Record<string, unknown>> | undefined {
  let value: unknown
  try {
    value = jsonParse(text)
  } catch {
    return undefined
  }
  return isRecord(value) ? value : undefined
}
