import { hasInstance, NativeError, toText } from './intrinsics.ts'

/** The message of whatever was thrown, without trusting it: a hostile error can throw again. */
export function errorText(error: unknown): string {
  try {
    return hasInstance(NativeError, error) ? (error as Error).message : toText(error)
  } catch {
    return 'unreadable error'
  }
}
