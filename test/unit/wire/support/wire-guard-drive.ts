// What the wire guard's tests share: a looping conversation, a driver that sends a run of request
// bodies through one guard, the events it reported, and where each format puts a reminder.
import { RECOMMENDED_CONFIG, type GuardConfig } from '../../../../engine/index.ts'
import type { WireEvent, WireGuard } from '../../../../engine/wire/index.ts'
import { repeat, type Body, type Script } from '../../../fixtures/wire/conversations.ts'

export const READ = { name: 'read_file', args: { path: 'a.txt' } }

export const LOOP: Script = { system: 'You are a coding agent. Fix the failing test.', turns: [{ prompt: 'make the tests pass' }, ...repeat(READ, 6)] }

/** Sends each body through the guard as the page would, one request after the other. */
export function drive(guard: WireGuard, bodies: readonly Body[], config: GuardConfig = RECOMMENDED_CONFIG) {
  return bodies.map((body) => {
    const text = JSON.stringify(body)
    const inspection = guard.inspect(text, config)
    return { sent: JSON.parse(inspection?.body ?? text) as Body, text: inspection?.body ?? text, inspection }
  })
}

export const eventsOf = (results: ReturnType<typeof drive>) => results.flatMap((r) => r.inspection?.events ?? [])

export const ofType = <T extends WireEvent['type']>(events: readonly WireEvent[], type: T) => events.filter((e): e is Extract<WireEvent, { type: T }> => e.type === type)

export const PLACES = {
  'openai-chat': { gentle: 'messages[8]', detailed: 'messages[13]' },
  'openai-responses': { gentle: 'input[7]', detailed: 'input[12]' },
  anthropic: { gentle: 'messages[6].content[1]', detailed: 'messages[10].content[1]' },
  gemini: { gentle: 'contents[7]', detailed: 'contents[12]' },
} as const

export function historyKey(body: Body): string {
  return 'messages' in body ? 'messages' : 'input' in body ? 'input' : 'contents'
}
