// Runs one Node agent (agents/agents.mjs) as a child process, as its user would run it: `node
// --import <the package's built register entry> agents.mjs <agent>`, against the mock model, and
// hands back what it printed and what the model received.
import { execFile } from 'node:child_process'
import { join, resolve } from 'node:path'
import { DIST_DIR } from '../support/browser.ts'
import type { Exchange, MockLlm } from '../support/mock-llm.ts'

/** The entry `npm run package` ships, as built. */
export const REGISTER = join(DIST_DIR, 'engine-package/register.js')
const AGENTS = resolve(import.meta.dirname, 'agents/agents.mjs')

export type NodeAgent = 'openaiChat' | 'openaiResponses' | 'openaiResponsesById' | 'anthropic' | 'aiSdk' | 'openaiAgents'

export interface NodeRun {
  /** Null when it ended by a signal. */
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** The model requests of this run, in the order the mock received them. */
  readonly exchanges: Exchange[]
}

export interface RunOptions {
  readonly origin: string
  readonly mock: MockLlm
  readonly model: string
  /** Added to the child's environment (REPEAT_TOOL_GUARD, REPEAT_TOOL_GUARD_CONFIG, GREETER...). */
  readonly env?: Readonly<Record<string, string>>
  /** Node's arguments before the script's (default: the register entry by --import). */
  readonly nodeArgs?: readonly string[]
  readonly script?: string
  readonly scriptArgs?: readonly string[]
}

/**
 * A child's environment: this one's but for the guard's own settings, which each run states, with
 * the mock model's origin and the model's name. The bridge is off unless a run asks for it: runs
 * in parallel would compete for its port.
 */
export function childEnv(origin: string, model: string, env: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const { REPEAT_TOOL_GUARD: _mode, REPEAT_TOOL_GUARD_CONFIG: _config, REPEAT_TOOL_GUARD_PORT: _port, NODE_OPTIONS: _options, ...inherited } = process.env
  return { ...inherited, MOCK_ORIGIN: origin, MODEL: model, REPEAT_TOOL_GUARD_PORT: '0', ...env }
}

/** Runs to the child's own exit: a child that does not exit by itself fails the test on its timeout. */
export function runNode({ origin, mock, model, env = {}, nodeArgs = ['--import', REGISTER], script = AGENTS, scriptArgs = [] }: RunOptions): Promise<NodeRun> {
  const first = mock.exchanges.length
  return new Promise((done) => {
    execFile(process.execPath, [...nodeArgs, script, ...scriptArgs], { env: childEnv(origin, model, env), timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
      done({ code, stdout, stderr, exchanges: mock.exchanges.slice(first).filter((e) => e.model === model || e.model === env.GREETER) })
    })
  })
}

export const runAgent = (agent: NodeAgent, options: Omit<RunOptions, 'scriptArgs'>): Promise<NodeRun> => runNode({ ...options, scriptArgs: [agent] })
