// The building blocks of the protocol's validators (validate.ts): a check throws a `Rejection`
// naming the drop reason and the path of the first field that fails; the message validators compose
// them. Shapes are exact: a missing field, a wrong type or an unknown key is a `shape` failure.
import { isRecord } from '../../../engine/safe-reading.ts'
import { LIMITS } from './events.ts'
import { isFrameOrigin } from './frame-origin.ts'
import type { DropReason } from './messages.ts'

export class Rejection {
  constructor(
    readonly reason: DropReason,
    readonly detail: string,
  ) {}
}

export function reject(reason: DropReason, detail: string): never {
  throw new Rejection(reason, detail)
}

export type Check = (value: unknown, path: string) => void

export const text =
  (max: number, min = 0): Check =>
  (value, path) => {
    if (typeof value !== 'string') reject('shape', `${path} must be a string`)
    if (value.length > max) reject('size', `${path} is longer than ${max} characters`)
    if (value.length < min) reject('shape', `${path} must not be empty`)
  }

export const natural: Check = (value, path) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) reject('shape', `${path} must be a non-negative integer`)
}

export const time: Check = (value, path) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) reject('shape', `${path} must be a timestamp`)
}

export const flag: Check = (value, path) => {
  if (typeof value !== 'boolean') reject('shape', `${path} must be a boolean`)
}

/** A marker field: present only as `true`. */
export const isTrue: Check = (value, path) => {
  if (value !== true) reject('shape', `${path} must be true when present`)
}

// For the checks built when this module loads: spreading a list into `oneOf` there would read the
// page-replaceable iterator, and the page script loads these modules only on first use.
export const oneOfList =
  (values: readonly string[]): Check =>
  (value, path) => {
    if (typeof value !== 'string' || !values.includes(value)) reject('shape', `${path} must be one of ${values.join(', ')}`)
  }

export const oneOf = (...values: readonly string[]): Check => oneOfList(values)

export const orNull =
  (check: Check): Check =>
  (value, path) => {
    if (value !== null) check(value, path)
  }

export const list =
  (item: Check, max = Number.POSITIVE_INFINITY): Check =>
  (value, path) => {
    if (!Array.isArray(value)) reject('shape', `${path} must be an array`)
    if (value.length > max) reject('size', `${path} holds more than ${max} entries`)
    for (let i = 0; i < value.length; i++) item(value[i], `${path}[${i}]`)
  }

/** An object with exactly these keys; an optional key may also be present as `undefined`. */
export const record =
  (required: Readonly<Record<string, Check>>, optional: Readonly<Record<string, Check>> = {}): Check =>
  (value, path) => {
    if (!isRecord(value)) reject('shape', `${path} must be an object`)
    for (const key of Object.keys(value)) {
      const check = required[key] ?? optional[key]
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) reject('shape', `${path}.${key} is not expected`)
      if (Object.hasOwn(optional, key) && value[key] === undefined) continue
      check!(value[key], `${path}.${key}`)
    }
    for (const key of Object.keys(required)) if (!Object.hasOwn(value, key)) reject('shape', `${path}.${key} is missing`)
  }

/** Picks the check by the value of `key` (`type`, `kind`), so every variant is checked exactly. */
export const variants =
  (key: string, checks: Readonly<Record<string, Check>>): Check =>
  (value, path) => {
    if (!isRecord(value)) reject('shape', `${path} must be an object`)
    const tag = value[key]
    if (typeof tag !== 'string' || !Object.hasOwn(checks, tag)) reject('shape', `${path}.${key} is not a known ${key}`)
    checks[tag]!(value, path)
  }

export const both =
  (...checks: readonly Check[]): Check =>
  (value, path) => {
    for (const check of checks) check(value, path)
  }

/** A field checked before the record is (the variant tag; the envelope's tag and version). */
export const checkedBefore: Check = () => {}

export const frameOrigin: Check = (value, path) => {
  text(LIMITS.url, 1)(value, path)
  if (!isFrameOrigin(value as string)) reject('shape', `${path} must be an origin (scheme://host[:port], file:// or null)`)
}
