// One run of the playground: a fresh project, a lead agent, the subagents it starts, and the
// prompts the user sends. The UI reads its agents and is told when anything changed.
import { Agent } from './agent.ts'
import { prompt, type LoopEnvironment } from './agent-loop.ts'
import type { ModelEndpoint } from './chat-client.ts'
import type { GuardPort } from './guard-port.ts'
import { MemoryProject } from './project.ts'
import { SAMPLE_FILES } from './sample-project.ts'
import { LEAD_TOOLS, PROJECT_TOOLS } from './tools/registry.ts'
import { ToolInputError, type Permissions, type SubagentHost, type Workspace } from './tools/tool.ts'
import { Turns } from './turns.ts'

interface SessionOptions {
  readonly endpoint: ModelEndpoint
  readonly lead: { readonly name: string; readonly system: string }
  readonly permissions: Permissions
  /** Absent when the guard is switched off. */
  readonly guard?: GuardPort
  readonly stepLimit: number
}

function subagentSystemPrompt(name: string, lead: string): string {
  return `You are ${name}, a subagent working for ${lead}. Do the task you are given with the project tools, then reply with a short report.`
}

export class Session {
  readonly lead: Agent
  readonly agents: Agent[] = []
  private readonly env: LoopEnvironment
  private readonly controller = new AbortController()
  private readonly listeners = new Set<() => void>()
  private readonly running = new Map<string, Promise<Agent>>()
  private busy = false

  constructor(options: SessionOptions) {
    const workspace: Workspace = { project: new MemoryProject(SAMPLE_FILES), permissions: options.permissions, todos: [], integrationChecks: 0 }
    this.env = {
      endpoint: options.endpoint,
      ...(options.guard ? { guard: options.guard } : {}),
      workspace,
      turns: new Turns(),
      stepLimit: options.stepLimit,
      signal: this.controller.signal,
      changed: () => this.changed(),
    }
    this.lead = new Agent({ name: options.lead.name, tools: LEAD_TOOLS, system: options.lead.system })
    this.agents.push(this.lead)
  }

  get workspace(): Workspace {
    return this.env.workspace
  }

  /** True while any agent of the run is still working. */
  get isBusy(): boolean {
    return this.busy
  }

  /** Sends the lead a prompt and resolves when it and every subagent it started are done. */
  async send(text: string): Promise<void> {
    if (this.busy) throw new Error('the agent is still working')
    this.busy = true
    try {
      await prompt(this.lead, text, this.env, this.host)
      await Promise.all(this.running.values())
    } finally {
      this.busy = false
      this.changed()
    }
  }

  stop(): void {
    this.controller.abort(new DOMException('stopped by the user', 'AbortError'))
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  private changed(): void {
    for (const listener of this.listeners) listener()
  }

  private readonly host: SubagentHost = {
    start: (name, task) => {
      if (this.agents.some((a) => a.name === name)) throw new ToolInputError(`an agent named "${name}" already exists`)
      const agent = new Agent({ name, parent: this.lead, tools: PROJECT_TOOLS, system: subagentSystemPrompt(name, this.lead.name) })
      this.agents.push(agent)
      this.running.set(name, prompt(agent, task, this.env))
      return `Started subagent "${name}"; it works alongside you. Call wait_subagent to get its report.`
    },
    wait: async (name) => {
      const run = this.running.get(name)
      if (!run) throw new ToolInputError(`no subagent named "${name}" (started: ${[...this.running.keys()].join(', ') || 'none'})`)
      const agent = await run
      if (agent.status === 'answered') return agent.answer ?? ''
      return `${name} stopped without a report (${agent.status}${agent.error ? `: ${agent.error}` : ''})`
    },
  }
}
