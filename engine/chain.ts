import { canonicalArgumentsAfter } from './canonical.ts'
import type { ResultKey } from './detectors/result-key.ts'
import type { TrackedCall } from './detectors/run-key.ts'
import { matchesShape, shapeOf, type PlainShape } from './plain-shape.ts'

/** The run of identical tracked calls an agent is in; empty before its first tracked call. */
export interface Chain {
  tool?: string
  /** The latest call's canonical arguments. */
  canonicalArguments?: string
  /** The last call's result, for a result-aware tool. */
  result?: ResultKey
  count: number
  /**
   * Once the run has repeated with identical arguments, their shape (plain-shape.ts): a call that
   * reads as it has the run's canonical arguments, found without serialising.
   */
  shape?: PlainShape
  /** The latest call as the detectors read it: a repeat recognised by its shape is that call again. */
  call?: TrackedCall
  /** When the run's first call was seen, while an opt-in detector is on (for `wasteMs`); else 0. */
  startedAt: number
}

/** A call's canonical arguments as the chain read them. */
interface ReadArguments {
  readonly canonical: string
  /** The call read as the chain's shape: it repeats the run's arguments, and the chain already keeps their shape. */
  readonly repeat: boolean
}

/**
 * The canonical arguments of a call of `tool`: the chain's own when the call reads as the shape
 * the chain kept (a repeat, recognised without serialising), else serialised once.
 */
export function readArguments(chain: Chain, tool: string, args: unknown): ReadArguments {
  const runArguments = chain.tool === tool ? chain.canonicalArguments : undefined
  if (runArguments !== undefined && chain.shape !== undefined && matchesShape(args, chain.shape)) return { canonical: runArguments, repeat: true }
  return { canonical: canonicalArgumentsAfter(args, runArguments), repeat: false }
}

/**
 * After the chain took a call: keep a shape while the run goes on with the same arguments, drop
 * it otherwise. A shape is made from a run's second call on (the first call of a run costs one
 * serialisation, which is what a stream of different calls costs), and made again when the
 * arguments no longer read as it but still were the same call (the same members in a new order).
 */
export function keepShape(chain: Chain, sameArguments: boolean, read: ReadArguments, args: unknown): void {
  if (!sameArguments) chain.shape = undefined
  else if (!read.repeat) chain.shape = shapeOf(args)
}

/**
 * A chain before its agent's first tracked call. Every field is there from the start, so every
 * chain has the one shape and the per-call reads of its fields stay monomorphic across agents.
 */
export function emptyChain(): Chain {
  return { tool: undefined, canonicalArguments: undefined, result: undefined, count: 0, shape: undefined, call: undefined, startedAt: 0 }
}

/** Empties `chain`, as a user prompt does. */
export function resetChain(chain: Chain): void {
  chain.tool = undefined
  chain.canonicalArguments = undefined
  chain.result = undefined
  chain.count = 0
  chain.call = undefined
  chain.shape = undefined
}
