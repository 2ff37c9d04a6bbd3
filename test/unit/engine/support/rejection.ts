// What a bad config is refused with: the config tests read the key and the message of the
// GuardConfigError that resolveConfig throws.
import { expect } from 'vitest'
import { GuardConfigError, resolveConfig } from '../../../../engine/index.ts'

/** The GuardConfigError `input` raises, as [key, message]; a config that is accepted fails the test. */
export function rejection(input: unknown): [string, string] {
  try {
    resolveConfig(input)
  } catch (error) {
    expect(error).toBeInstanceOf(GuardConfigError)
    const { key, message, name } = error as GuardConfigError
    expect(name).toBe('GuardConfigError')
    return [key, message]
  }
  let shown: string
  try {
    shown = JSON.stringify(input) ?? String(input)
  } catch {
    shown = String(input)
  }
  throw new Error(`accepted ${shown}`)
}
