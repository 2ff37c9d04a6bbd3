// WebMCP's cost, as ratios against a baseline measured in the same run, in Chromium launched with
// WebMCP on: a tool call through `document.modelContext.executeTool`, the tool registered through
// the extension's hooked `registerTool` (its `execute` wrapped) and called through the hooked
// `executeTool`, against a twin tool registered and called through the native methods kept before
// the extension's built MAIN-world script (dist/extension/page.js, exactly as shipped) ran. Both
// live in one page and take turns, so a slow moment of the machine falls on both sides of a ratio.
// The origin's setting is set as the extension's content script sets it, over the private channel
// the relay hands the page script at document_start (extension/src/page/relay-channel.ts), which
// the page stands in for here: `off` is the pass-through (the wrapper only reads the setting),
// `guard` counts every call through the frame's WebMCP agent.
// Each call has new arguments, as an agent's calls mostly do (a run of repeats costs no more).
// Nothing here asserts on time: a missed target shows as `NO` in the `met` column.
import { afterAll, it } from 'vitest'
import { PROTOCOL_VERSION } from '../extension/src/protocol/events.ts'
import { CHANNEL_EVENT, CONTENT_SOURCE } from '../extension/src/protocol/messages.ts'
import type { ZeroCodeMode } from '../extension/src/protocol/zero-code-mode.ts'
import { rowsWithControl } from './support/per-round-row.ts'
import type { RoundsWindow } from './support/rounds.ts'
import { TOOL_INPUT_SCRIPT, type ToolInputWindow } from '../test/e2e/webmcp/tool-input.ts'
import { openShippedScriptPage } from './support/shipped-script-page.ts'
import { keepForResults } from './support/results.ts'
import type { SpreadRow } from './support/spread-row.ts'

const rows: SpreadRow[] = []
keepForResults('WebMCP tool calls (Chromium)', () => rows)

afterAll(() => {
  console.log('\nWebMCP (ratio: median over rounds; spread: 25th–75th percentile of the rounds; interval: where the median falls 95 times in 100)')
  console.table(rows)
})

// The natives are kept, and the twin tool registered through them, before page.js hooks them.
const PAGE = `<!doctype html>${TOOL_INPUT_SCRIPT}<script>
  const prototype = Object.getPrototypeOf(document.modelContext)
  window.natives = { registerTool: prototype.registerTool, executeTool: prototype.executeTool }
  const execute = (args) => ({ content: [{ type: 'text', text: 'item ' + args.id }] })
  window.natives.registerTool.call(document.modelContext, { name: 'native_lookup', description: 'Looks an item up', inputSchema: { type: 'object' }, execute })
  window.execute = execute
</script><script src="/page.js"></script><script>
  const relay = new MessageChannel()
  dispatchEvent(new MessageEvent(${JSON.stringify(CHANNEL_EVENT)}, { ports: [relay.port2] }))
  window.relay = relay.port1
  document.modelContext.registerTool({ name: 'lookup', description: 'Looks an item up', inputSchema: { type: 'object' }, execute: window.execute })
</script>`

it('a tool call through executeTool costs what it costs without the wrapper', async () => {
  const { page, close } = await openShippedScriptPage(PAGE, { args: ['--enable-features=WebMCP', '--enable-experimental-web-platform-features'] })
  try {
    for (const mode of ['off', 'guard'] as const satisfies readonly ZeroCodeMode[]) {
      // A resync sent after the setting is answered once the setting is in force: the port keeps their order.
      await page.evaluate(
        (messages) =>
          new Promise<void>((answered) => {
            const relay = (window as unknown as { relay: MessagePort }).relay
            relay.onmessage = () => answered()
            for (const message of messages) relay.postMessage(message)
          }),
        [
          { source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'zero-code', mode },
          { source: CONTENT_SOURCE, v: PROTOCOL_VERSION, kind: 'resync' },
        ] as const,
      )
      const result = await page.evaluate(
        async ([samples, batch]) => {
          const { interleaved } = (window as unknown as RoundsWindow).benchRounds
          type Tool = { name: string }
          type Natives = { executeTool: (this: unknown, tool: Tool, args: unknown) => Promise<string> }
          const context = (document as unknown as { modelContext: { getTools(): Promise<Tool[]>; executeTool: Natives['executeTool'] } }).modelContext
          const natives = (window as unknown as { natives: Natives }).natives
          if (natives.executeTool === context.executeTool) throw new Error('executeTool is not hooked: the page script did not run')
          const tools = await context.getTools()
          const find = (name: string) => tools.find((t) => t.name === name)!
          const nativeTool = find('native_lookup')
          const wrappedTool = find('lookup')
          const input = (window as unknown as ToolInputWindow).toolInput
          // A call the browser refuses would time its refusal: each tool answers once first (a refusal throws here).
          for (const tool of [nativeTool, wrappedTool]) await context.executeTool(tool, input({ id: 0 }))
          let id = 0
          const time = async (call: () => Promise<string>) => {
            const start = performance.now()
            for (let i = 0; i < batch; i++) await call()
            return (performance.now() - start) / batch
          }
          const arms = [
            () => natives.executeTool.call(context, nativeTool, input({ id: (id += 1) })),
            () => context.executeTool(wrappedTool, input({ id: (id += 1) })),
            () => natives.executeTool.call(context, nativeTool, input({ id: (id += 1) })),
          ]
          return interleaved(
            arms.map((call) => () => time(call)),
            samples,
            4,
          )
        },
        [151, 40] as const,
      )
      // Off is the pass-through, held to the target; guard is what counting costs (the analysis, and
      // the call's events posted towards the panel), shown for information.
      const name = mode === 'off' ? 'executeTool, setting off (pass-through)' : 'executeTool, setting guard (every call counted, info)'
      rows.push(...rowsWithControl(name, result, mode === 'off' ? 1.05 : undefined))
    }
  } finally {
    await close()
  }
})
