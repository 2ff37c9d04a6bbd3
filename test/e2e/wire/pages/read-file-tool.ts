// What every test agent shares, whatever client it is written with: its options, its run, and its
// one tool, which reads from a small fixed project.

export interface AgentOptions {
  readonly model: string
  readonly system: string
  readonly prompt: string
}

export interface AgentRun {
  readonly answer: string
  /** Every tool result the agent handed back, in order, exactly as it handed it. */
  readonly results: readonly string[]
}

const FILES: Readonly<Record<string, string>> = {
  'notes.txt': 'TODO: the config loader ignores "threshold"\nsee loader.ts:42',
  'loader.ts': 'export function load(path) {\n  return JSON.parse(read(path))\n}',
}

export const MAX_STEPS = 12
export const origin = () => location.origin

/** The agent's one tool; every result is recorded so a test can check none was altered. */
export function runTool(results: string[], name: string, args: unknown): string {
  const path = (args as { path?: unknown })?.path
  const result = name === 'read_file' && typeof path === 'string' ? (FILES[path] ?? `no such file: ${path}`) : `unknown tool ${name}`
  results.push(result)
  return result
}

export const READ_FILE = {
  name: 'read_file',
  description: 'Read a text file of the project',
  parameters: { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
}
