// One agent of a run: its identity (the object the guard keys its chain on), its conversation
// and where it stands.
import type { TranscriptEntry } from './transcript.ts'
import type { Tool } from './tools/tool.ts'

export type AgentStatus = 'waiting' | 'working' | 'answered' | 'step-limit' | 'failed' | 'stopped'

export class Agent {
  /** Read by the guard for the agent's label. */
  readonly name: string
  /** Read by the guard: a subagent is shown under its parent. */
  readonly parent?: Agent
  readonly tools: readonly Tool[]
  readonly entries: TranscriptEntry[] = []
  status: AgentStatus = 'waiting'
  /** Why the agent failed, when it did. */
  error?: string
  /** How many entries the latest request carried: later ones the model has not seen yet. */
  sentCount = 0
  /** The messages as the model received them in the latest request, when the model says (scripted model). */
  received?: readonly unknown[]

  constructor(options: { name: string; parent?: Agent; tools: readonly Tool[]; system: string }) {
    this.name = options.name
    if (options.parent) this.parent = options.parent
    this.tools = options.tools
    this.entries.push({ kind: 'system', message: { role: 'system', content: options.system } })
  }

  /** The text of the agent's last answer, if its last message is one. */
  get answer(): string | undefined {
    const last = this.entries.at(-1)
    return last?.kind === 'assistant' && !last.message.tool_calls?.length ? (last.message.content ?? '') : undefined
  }
}
