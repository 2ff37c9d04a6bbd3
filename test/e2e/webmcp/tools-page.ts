// A page that exposes WebMCP tools, and an agent loop in it that calls one of them through
// `document.modelContext.executeTool` again and again, as the browser's agent or the page's own
// would. What each call's `execute` saw (its `this`, its arguments) and what the loop got back are
// kept on the window for the test to read.
import { routeHtml, type TestServer } from '../support/server.ts'
import { TOOL_INPUT_SCRIPT } from './tool-input.ts'

/** Served at `/tools`. */
const PAGE = `<!doctype html><title>WebMCP tools</title>${TOOL_INPUT_SCRIPT}
<script>
  const seen = { calls: [], thrown: undefined }
  window.seen = seen
  document.modelContext.registerTool({
    name: 'read_file',
    description: 'Reads a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    execute(args) {
      seen.calls.push({ thisIsWindow: this === window, args })
      return { content: [{ type: 'text', text: 'notes: the loader ignores threshold' }], structuredContent: { lines: 1 } }
    },
  })
  document.modelContext.registerTool({
    name: 'flaky',
    description: 'Always fails',
    inputSchema: { type: 'object' },
    async execute() {
      seen.thrown = new Error('disk on fire')
      throw seen.thrown
    },
  })
  /** The agent loop: the same call \`times\` times; each result as the loop received it. */
  window.loop = async (name, args, times) => {
    const context = document.modelContext
    const tool = (await context.getTools()).find((t) => t.name === name)
    const results = []
    for (let i = 0; i < times; i++) {
      try {
        results.push({ ok: await context.executeTool(tool, window.toolInput(args)) })
      } catch (error) {
        results.push({ error: error.name + ': ' + error.message })
      }
    }
    return results
  }
</script>`

export const routeToolsPage = (server: TestServer): void => routeHtml(server, '/tools', PAGE)

export interface LoopResult {
  /** The JSON text `executeTool` resolved to. */
  readonly ok?: string
  /** What it rejected with: `name: message`. */
  readonly error?: string
}

export interface Seen {
  readonly calls: { readonly thisIsWindow: boolean; readonly args: unknown }[]
}
