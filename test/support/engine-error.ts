import { resolveConfig } from '../../engine/index.ts'

/** The message the engine itself gives for a bad config: what the panel must show, word for word. */
export function engineError(input: unknown): string {
  try {
    resolveConfig(input)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('the engine accepted it')
}
