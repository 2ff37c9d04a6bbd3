import { hasInstance, NativeError, stringCharCodeAt, stringSlice, toText } from './intrinsics.ts'

/**
 * The longest head of `text` that is at most `maxChars` UTF-16 code units long and does not end
 * in the first half of a surrogate pair: what the engine hands out goes into JSON request bodies
 * and panel rows, where half a character is broken text.
 */
export function headOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const last = stringCharCodeAt(text, maxChars - 1)
  return stringSlice(text, 0, last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars)
}

/** The message of whatever was thrown, without trusting it: a hostile error can throw again. */
export function errorText(error: unknown): string {
  try {
    return hasInstance(NativeError, error) ? (error as Error).message : toText(error)
  } catch {
    return 'unreadable error'
  }
}
