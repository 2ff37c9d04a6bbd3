import { canonicalArguments } from './canonical.ts'
import { keepable, plainText } from './plain-text.ts'

/** The run of identical tracked calls an agent is in; empty before its first tracked call. */
export interface Chain {
  tool?: string
  canonicalArguments?: string
  count: number
  /**
   * Once the run has repeated, the plain text of its latest call (plain-text.ts), and whether
   * that was a string: a call with the same text is the same call, found without serialising.
   */
  plain?: string
  plainOfString?: boolean
}

/**
 * Adds a tracked call to `chain`: one more in the run when it is the same call, else a new run
 * at 1. Returns the call's canonical arguments, which a recognised repeat does not compute again.
 */
export function advanceChain(chain: Chain, tool: string, args: unknown): string {
  const runArguments = chain.tool === tool ? chain.canonicalArguments : undefined
  const compared = runArguments !== undefined && chain.plain !== undefined
  let text: string | undefined
  if (compared) {
    text = plainText(args)
    if (text === chain.plain && chain.plainOfString === (typeof args === 'string')) {
      chain.count += 1
      return runArguments
    }
  }
  const canonical = canonicalArguments(args)
  if (canonical === runArguments) {
    chain.count += 1
    // From the run's second call on, its plain text is kept: the first call of a run pays for
    // one serialisation, not two, which is what a stream of different calls costs.
    if (!compared) text = plainText(args)
    keepPlain(chain, text !== undefined && keepable(text, args) ? text : undefined, args)
    return canonical
  }
  resetChain(chain)
  chain.tool = tool
  chain.canonicalArguments = canonical
  chain.count = 1
  return canonical
}

/** Empties `chain`, as a user prompt does. */
export function resetChain(chain: Chain): void {
  chain.tool = undefined
  chain.canonicalArguments = undefined
  chain.count = 0
  keepPlain(chain, undefined, undefined)
}

function keepPlain(chain: Chain, text: string | undefined, args: unknown): void {
  chain.plain = text
  chain.plainOfString = typeof args === 'string'
}
