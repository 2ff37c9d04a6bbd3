// Shared pieces of the loop tests: a few in-memory tools and a one-call-per-step script.
import { createRepeatToolGuard, type GuardConfigInput, type ReminderMessage } from '../../../../engine/index.ts'
import { recordEvents } from './events.ts'
import { createAgent, runAgent, scriptedModel, type LoopOptions, type Message, type ModelTurn, type Tool } from './agent-loop.ts'

export const tools: Record<string, Tool> = {
  grep: ({ pattern, path }: { pattern: string; path: string }) => `${path}/app.ts:12: // ${pattern}: handle errors`,
  read_file: ({ path }: { path: string }) => `contents of ${path}`,
  write_file: ({ content }: { content: string }) => `wrote ${content.length} chars`,
  todo_write: () => 'Todos updated',
  delete_file: ({ path }: { path: string }) => `deleted ${path}`,
}

/** One tool call per step, then a final answer. */
export function oneCallPerStep(calls: readonly (readonly [name: string, args: unknown])[], answer = 'Done.'): ModelTurn[] {
  return [...calls.map(([name, args]) => ({ calls: [{ name, arguments: args }] })), { text: answer }]
}

export function times<T>(n: number, item: T): T[] {
  return Array.from({ length: n }, () => item)
}

/** Runs one agent through `turns` with a fresh guard; returns what a test inspects. */
export async function runScenario(turns: readonly ModelTurn[], config?: GuardConfigInput, loop?: Partial<LoopOptions>) {
  const guard = createRepeatToolGuard(config)
  const events = recordEvents(guard)
  const agent = loop?.agent ?? createAgent('main')
  const model = scriptedModel(turns)
  await runAgent({ guard, agent, model, tools, prompt: 'Find the open TODOs in src.', ...loop })
  return { guard, events, agent, model }
}

/** The guard's reminders in a transcript, with the message each one follows. */
export function remindersIn(history: readonly Message[]): { reminder: ReminderMessage; after: Message | undefined }[] {
  return history.flatMap((message, i) => (message.role === 'user' && message.source !== undefined ? [{ reminder: message as unknown as ReminderMessage, after: history[i - 1] }] : []))
}

export const textOf = (reminder: ReminderMessage) => reminder.content[0].text
