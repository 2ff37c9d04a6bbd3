// What a tool is to the agent loop, and the state the tools of one run share.
import type { MemoryProject } from '../project.ts'
import type { JsonSchema, ToolDefinition } from '../wire.ts'

/** What the loop hands back to the model (as the `tool` message) and to the guard. */
export interface ToolOutcome {
  readonly content: string
  readonly isError?: boolean
  /** Refused by the permission setting; the call still counts for the guard. */
  readonly denied?: boolean
}

export interface Permissions {
  /** `delete_path` runs only when this is true. */
  readonly allowDelete: boolean
}

export interface Todo {
  readonly content: string
  readonly status: 'pending' | 'in_progress' | 'completed'
}

/** Everything the tools of one run read and change. */
export interface Workspace {
  readonly project: MemoryProject
  readonly permissions: Permissions
  todos: readonly Todo[]
  /** How many times the integration pipeline was checked. */
  integrationChecks: number
}

/** Lets a lead agent start subagents and wait for them (see subagents.ts). */
export interface SubagentHost {
  start(name: string, task: string): string
  wait(name: string): Promise<string>
}

export interface ToolContext {
  readonly workspace: Workspace
  /** Present for lead agents only: subagents cannot start subagents. */
  readonly subagents?: SubagentHost
  /** Lets other agents take their steps while a tool waits on them. */
  readonly yieldTurnUntil: <T>(work: Promise<T>) => Promise<T>
}

export interface Tool {
  readonly name: string
  readonly description: string
  readonly parameters: JsonSchema
  run(args: Record<string, unknown>, context: ToolContext): ToolOutcome | Promise<ToolOutcome>
}

/** A bad argument: the loop turns it into an error result the model can read. */
export class ToolInputError extends Error {}

export function definitionOf(tool: Tool): ToolDefinition {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }
}

export function requireString(args: Record<string, unknown>, key: string): string {
  const value = args[key]
  if (typeof value !== 'string') throw new ToolInputError(`"${key}" must be a string`)
  return value
}

export function optionalString(args: Record<string, unknown>, key: string, fallback: string): string {
  return args[key] === undefined ? fallback : requireString(args, key)
}

export function optionalBoolean(args: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = args[key]
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') throw new ToolInputError(`"${key}" must be true or false`)
  return value
}

export function optionalPositiveInteger(args: Record<string, unknown>, key: string, fallback: number): number {
  const value = args[key]
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new ToolInputError(`"${key}" must be a positive integer`)
  return value
}
