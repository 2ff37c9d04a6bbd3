// The largest session file a panel opens. It follows the panel's byte budget: every byte the panel
// counts takes at most EXPORT_BYTES_PER_BYTE bytes of session file (retained-bytes.ts), so any
// session a panel holds within its budget exports to a file that a panel with the same budget opens.
import { EXPORT_BYTES_PER_BYTE } from './retained-bytes.ts'

/** The file's own fields (format, version, drop counts), beyond what its records take. */
const ENVELOPE_BYTES = 4 * 1024
const MB = 1024 * 1024

/** The largest file, in bytes (or characters of an already read text), a panel with `maxBytes` opens. */
export const maxSessionBytes = (maxBytes: number): number => EXPORT_BYTES_PER_BYTE * maxBytes + ENVELOPE_BYTES

/** Why a file of `bytes` is not opened by a panel with `maxBytes`, or undefined when its size is acceptable. */
export function sessionSizeError(bytes: number, maxBytes: number): string | undefined {
  const cap = maxSessionBytes(maxBytes)
  if (bytes <= cap) return undefined
  const mb = (n: number, round: (x: number) => number) => `${round(n / MB).toLocaleString('en-US')} MB`
  return `The file is ${mb(bytes, Math.ceil)}: this panel opens session files up to ${mb(cap, Math.floor)}.`
}
