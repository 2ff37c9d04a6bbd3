// An AG-UI client page on `@ag-ui/client`'s HttpAgent, knowing nothing of the guard:
// `window.agui.run(text, tools)` runs a thread against `/agent` until the agent answers. With
// `tools: 'frontend'` it declares `search` as a frontend tool: each call the agent makes ends its
// run, the page adds the tool's result to the thread and runs the agent again, as CopilotKit does.
import { HttpAgent } from '@ag-ui/client'

const RESULT = 'no match in src/'
const SEARCH = { name: 'search', description: 'Searches the code', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }

async function run(text: string, tools: 'server' | 'frontend'): Promise<{ roles: string[]; runs: number }> {
  const agent = new HttpAgent({ url: `/agent?tools=${tools}` })
  agent.addMessage({ id: crypto.randomUUID(), role: 'user', content: text })
  for (let runs = 1; runs <= 20; runs++) {
    await agent.runAgent({ tools: tools === 'frontend' ? [SEARCH] : [] })
    const last = agent.messages.at(-1)
    const calls = last?.role === 'assistant' ? (last.toolCalls ?? []) : []
    if (tools !== 'frontend' || calls.length === 0) return { roles: agent.messages.map((m) => m.role), runs }
    for (const call of calls) agent.addMessage({ id: crypto.randomUUID(), role: 'tool', toolCallId: call.id, content: RESULT })
  }
  throw new Error('the agent never answered')
}

Object.assign(window, { agui: { run } })
