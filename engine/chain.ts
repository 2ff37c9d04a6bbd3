import { canonicalArguments } from './canonical.ts'
import type { ResultKey } from './detectors/result-key.ts'
import type { TrackedCall } from './detectors/run-key.ts'
import { matchesShape, shapeOfText, type PlainShape } from './plain-shape.ts'
import { keepable, plainText } from './plain-text.ts'

/** The run of identical tracked calls an agent is in; empty before its first tracked call. */
export interface Chain {
  tool?: string
  /** The latest call's canonical arguments. */
  canonicalArguments?: string
  /** The last call's result, for a result-aware tool. */
  result?: ResultKey
  count: number
  /**
   * Once the run has repeated with identical arguments, the plain text of its latest call
   * (plain-text.ts), and whether that was a string: a call with the same text has the same
   * canonical arguments, found without serialising.
   */
  plain?: string
  plainOfString?: boolean
  /** The shape the plain text parses to, for small object arguments that read as it (plain-shape.ts). */
  shape?: PlainShape
  /** The latest call as the detectors read it: a repeat recognised by its plain text is that call again. */
  call?: TrackedCall
}

/** A call's canonical arguments as the chain read them, with the plain text it compared, if any. */
interface ReadArguments {
  readonly canonical: string
  readonly text: string | undefined
  /** The plain text was the chain's: the call repeats the run's arguments, and the chain already keeps that text. */
  readonly repeat: boolean
}

/**
 * The canonical arguments of a call of `tool`: the chain's own when the call's plain text is the
 * one the chain kept (a repeat, recognised without serialising), else serialised once.
 */
export function readArguments(chain: Chain, tool: string, args: unknown): ReadArguments {
  const runArguments = chain.tool === tool ? chain.canonicalArguments : undefined
  if (runArguments === undefined || chain.plain === undefined) return { canonical: canonicalArguments(args), text: undefined, repeat: false }
  // The cheapest answer first: small arguments that read as the run's, with nothing serialised.
  if (chain.shape !== undefined && matchesShape(args, chain.shape)) return { canonical: runArguments, text: chain.plain, repeat: true }
  const text = plainText(args)
  if (text === chain.plain && chain.plainOfString === (typeof args === 'string')) return { canonical: runArguments, text, repeat: true }
  return { canonical: canonicalArguments(args), text, repeat: false }
}

/**
 * After the chain took a call: keep its plain text when the run went on with the very same
 * arguments, drop it otherwise. From a run's second call on the text is kept, so the first call
 * of a run pays for one serialisation, not two, which is what a stream of different calls costs.
 */
export function keepPlainText(chain: Chain, sameArguments: boolean, read: ReadArguments, args: unknown): void {
  if (!sameArguments) return keepPlain(chain, undefined, undefined)
  const text = read.text ?? plainText(args)
  keepPlain(chain, text !== undefined && keepable(text, args) ? text : undefined, args)
}

/**
 * A chain before its agent's first tracked call. Every field is there from the start, so every
 * chain has the one shape and the per-call reads of its fields stay monomorphic across agents.
 */
export function emptyChain(): Chain {
  return { tool: undefined, canonicalArguments: undefined, result: undefined, count: 0, plain: undefined, plainOfString: false, shape: undefined, call: undefined }
}

/** Empties `chain`, as a user prompt does. */
export function resetChain(chain: Chain): void {
  chain.tool = undefined
  chain.canonicalArguments = undefined
  chain.result = undefined
  chain.count = 0
  chain.call = undefined
  keepPlain(chain, undefined, undefined)
}

function keepPlain(chain: Chain, text: string | undefined, args: unknown): void {
  chain.plain = text
  chain.plainOfString = typeof args === 'string'
  chain.shape = text !== undefined && typeof args === 'object' && args !== null ? ownShape(text, args) : undefined
}

/**
 * The shape of `text`, kept only when `args` (what the text was written from) reads as it: then
 * the run's canonical form is the shape's, and a call that matches the shape has it too. Arguments
 * JSON reads differently from the canonical serialiser (a Date, a boxed primitive) keep none.
 */
function ownShape(text: string, args: object): PlainShape | undefined {
  const shape = shapeOfText(text)
  return shape !== undefined && matchesShape(args, shape) ? shape : undefined
}
