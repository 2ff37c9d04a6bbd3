// What the wire detector tests share: a run of requests through one guard under a config, the
// events it reported, and the scripted calls they loop on.
import { RECOMMENDED_CONFIG, resolveConfig, type GuardConfig, type GuardConfigInput } from '../../../../engine/index.ts'
import { createWireGuard, type WireEvent, type WireGuard } from '../../../../engine/wire/index.ts'
import { BUILDERS, requests, type Body, type ScriptedCall, type Turn } from '../../../fixtures/wire/conversations.ts'

export const FORMATS = Object.keys(BUILDERS) as (keyof typeof BUILDERS)[]

export const SYSTEM = 'You are an agent that waits for a build.'

export const configWith = (input: GuardConfigInput): GuardConfig => resolveConfig(input, RECOMMENDED_CONFIG)

export function drive(guard: WireGuard, bodies: readonly Body[], config: GuardConfig) {
  return bodies.map((body) => {
    const text = JSON.stringify(body)
    const inspection = guard.inspect(text, config)
    return { sent: JSON.parse(inspection?.body ?? text) as Body, text: inspection?.body ?? text, events: inspection?.events ?? [] }
  })
}

export type Results = ReturnType<typeof drive>

export const eventsOf = (results: Results) => results.flatMap((r) => r.events)

export const ofType = <T extends WireEvent['type']>(events: readonly WireEvent[], type: T) => events.filter((e): e is Extract<WireEvent, { type: T }> => e.type === type)

/** A request after every step, each guarded as the page sends it. */
export const run = (format: keyof typeof BUILDERS, turns: readonly Turn[], config: GuardConfig) =>
  drive(createWireGuard(), requests({ system: SYSTEM, turns: [{ prompt: 'wait for the build' }, ...turns] }, BUILDERS[format]), config)

export const poll = (result: ScriptedCall['result']): Turn => ({ calls: [{ name: 'build_status', args: { id: 7 }, result }] })

export const remindersOf = (results: Results) => ofType(eventsOf(results), 'reminder').map((e) => [e.tool, e.level, e.count])

export const A: ScriptedCall = { name: 'read_file', args: { path: 'a.ts' } }

export const B: ScriptedCall = { name: 'read_file', args: { path: 'b.ts' } }

export const CYCLE_TEXT_START = 'Repeated cycle of tool calls detected:\n- cycle: read_file -> read_file\n- repetitions: 3\n'
