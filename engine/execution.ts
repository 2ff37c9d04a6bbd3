import type { ToolExecution, ToolResult } from './types.ts'

/** A call as the guard reads it: every field read once, so a getter cannot answer twice. */
export interface ObservedCall {
  readonly agent: object | undefined
  readonly tool: string
  readonly arguments: unknown
  readonly denied: boolean
  readonly isError: boolean
}

/**
 * Misuse of the API: a `TypeError` the caller must see. Anything else thrown while the guard
 * observes a call is the guard's fault and never fails the caller's tool call.
 */
export class UsageError extends TypeError {
  override readonly name = 'TypeError'
  constructor(message: string) {
    super(`repeat-tool-guard: ${message}`)
  }
}

export function readExecution(exec: ToolExecution, result: ToolResult | undefined): ObservedCall {
  if (!isObjectLike(exec)) throw new UsageError(`expected a tool execution { agent, name, arguments }, got ${kindOf(exec)}`)
  const { agent, name } = exec
  if (typeof name !== 'string' || name.length === 0) throw new UsageError(`the tool execution needs a non-empty string name, got ${kindOf(name)}`)
  if (agent !== undefined && agent !== null && !isObjectLike(agent)) throw new UsageError(`agent must be the live agent object, got ${kindOf(agent)}`)
  if (result !== undefined && result !== null && !isObjectLike(result)) throw new UsageError(`the tool result must be an object, got ${kindOf(result)}`)
  return {
    agent: agent ?? undefined,
    tool: name,
    arguments: exec.arguments,
    denied: result?.denied === true,
    isError: result?.isError === true,
  }
}

export function kindOf(value: unknown): string {
  return value === null ? 'null' : value === '' ? 'an empty string' : typeof value
}

/** Objects and functions: what a WeakMap can hold by identity, so what an agent can be. */
export function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function'
}
