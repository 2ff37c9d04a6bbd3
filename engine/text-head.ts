import { stringCharCodeAt, stringSlice } from './intrinsics.ts'

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
