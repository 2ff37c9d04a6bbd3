// The page's `read_file` tool for the WebMCP hooks' tests, registered on a fake model context
// (fake-model-context.ts), and the events of one type the hooks sent.
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import { detailed } from '../../../../fixtures/wire/reminders.ts'
import type { PageRealm } from './fake-model-context.ts'

export const ARGS = { path: 'a.txt' }
export const ITEM = { type: 'text', text: 'contents of a.txt' }
export const DETAILED = detailed('read_file', 5, '{"path":"a.txt"}')
export const reminder = (text: string) => ({ type: 'text', text })

/** Registers `read_file`, whose execute returns what `result` makes, and counts its runs. */
export async function withTool(realm: PageRealm, result: () => unknown = () => ({ content: [ITEM], extra: { kept: true } }), name = 'read_file') {
  const runs: { self: unknown; args: unknown[] }[] = []
  const tool = {
    name,
    description: 'Reads a file',
    inputSchema: { type: 'object' },
    execute(this: unknown, ...args: unknown[]) {
      runs.push({ self: this, args })
      return result()
    },
  }
  await realm.modelContext.registerTool(tool)
  return { tool, runs, execute: realm.registered.at(-1)!.execute }
}

export const ofType = <T extends PanelEvent['type']>(events: PanelEvent[], type: T) => events.filter((e): e is Extract<PanelEvent, { type: T }> => e.type === type)
