// The panel events (extension/src/protocol/events.ts) mirror the engine's GuardEvent and its
// agent types by hand: the protocol renames some fields, turns engine ids into page-wide ones and
// adds what only zero-code mode knows. This file holds the two in step, at type level: every engine
// event and every field of one is routed to the panel event that carries it, and a field carried
// as it is has the same type on both sides. `npm run typecheck` (tsc -p .) checks it; an engine
// change the protocol has not followed fails there, naming the field.
import { describe, expectTypeOf, it } from 'vitest'
import type { AgentInfo, AgentSnapshot, GuardEvent } from '../../../../engine/index.ts'
import type { AgentDescriptor, AgentState, PanelEvent } from '../../../../extension/src/protocol/events.ts'

/** Where an engine field goes: the panel event's field, and whether its type is the same there or converted. */
type Route = readonly [to: string, how: 'same' | 'converted']

/** Each engine event: the panel event it becomes, and the route of each of its fields but `type`. */
interface EventRoutes extends Record<GuardEvent['type'], { readonly as: PanelEvent['type']; readonly fields: Readonly<Record<string, Route>> }> {
  'agent-seen': { as: 'agent'; fields: { at: ['at', 'same']; agent: ['agent', 'converted'] } }
  call: {
    as: 'call'
    fields: {
      at: ['at', 'same']
      agentId: ['agentId', 'converted']
      seq: ['seq', 'same']
      tool: ['tool', 'same']
      canonicalArguments: ['args', 'same']
      tracked: ['tracked', 'same']
      denied: ['denied', 'same']
      isError: ['isError', 'same']
      count: ['count', 'same']
      nextThreshold: ['nextThreshold', 'same']
      result: ['result', 'same']
    }
  }
  'chain-reset': {
    as: 'reset'
    fields: { at: ['at', 'same']; agentId: ['agentId', 'converted']; reason: ['reason', 'same']; previousCount: ['previousCount', 'same'] }
  }
  reminder: {
    as: 'reminder'
    fields: {
      at: ['at', 'same']
      agentId: ['agentId', 'converted']
      seq: ['seq', 'same']
      tool: ['tool', 'same']
      count: ['count', 'same']
      level: ['level', 'same']
      detector: ['detector', 'same']
      wasteMs: ['wasteMs', 'same']
      message: ['text', 'converted']
    }
  }
  blocked: {
    as: 'blocked'
    fields: { at: ['at', 'same']; agentId: ['agentId', 'converted']; tool: ['tool', 'same']; count: ['count', 'same']; feedback: ['feedback', 'same']; wasteMs: ['wasteMs', 'same'] }
  }
  config: { as: 'config'; fields: { at: ['at', 'same']; config: ['config', 'same'] } }
  fault: { as: 'fault'; fields: { at: ['at', 'same']; message: ['message', 'same'] } }
}

/** The engine's agent as an `agent` event describes it. */
interface AgentInfoRoutes {
  id: ['id', 'converted']
  label: ['label', 'same']
  parentId: ['parentId', 'converted']
}

/** The engine's agent snapshot as a `snapshot` event lists it. */
interface AgentSnapshotRoutes extends AgentInfoRoutes {
  tool: ['tool', 'same']
  canonicalArguments: ['args', 'same']
  count: ['count', 'same']
  nextThreshold: ['nextThreshold', 'same']
}

/** True only when A and B are the same type (optional or not, readonly or not alike). */
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false

/** True when `T`'s key `K` is optional: an object without it still has `T`'s shape for that key. */
type IsOptional<T, K extends keyof T> = Record<never, never> extends Pick<T, K> ? true : false

/** What is out of step between `Source` and `Target` under `Routes`, one message each; never when nothing is. */
type Drift<Name extends string, Source, Target, Routes> =
  | { [K in Exclude<keyof Source, keyof Routes | 'type'>]: `${Name}.${K & string}: an engine field the protocol does not route` }[Exclude<keyof Source, keyof Routes | 'type'>]
  | { [K in Exclude<keyof Routes, keyof Source>]: `${Name}.${K & string}: routed, but no longer in the engine` }[Exclude<keyof Routes, keyof Source>]
  | {
      [K in keyof Routes & keyof Source]: Routes[K] extends readonly [infer To extends string, infer How]
        ? To extends keyof Target
          ? How extends 'same'
            ? Same<Pick<Source, K>[K], Pick<Target, To>[To]> extends true
              ? Same<IsOptional<Source, K>, IsOptional<Target, To>> extends true
                ? never
                : `${Name}.${K & string}: optional on one side only (${To})`
              : `${Name}.${K & string}: carried as ${To}, whose type differs`
            : never
          : `${Name}.${K & string}: carried as ${To}, which the panel event lacks`
        : `${Name}.${K & string}: not a route`
    }[keyof Routes & keyof Source]

type EngineEvent<T> = Extract<GuardEvent, { type: T }>
type PanelEventOf<T> = Extract<PanelEvent, { type: T }>

type EventDrift = {
  [T in keyof EventRoutes]: Drift<T, EngineEvent<T>, PanelEventOf<EventRoutes[T]['as']>, EventRoutes[T]['fields']>
}[keyof EventRoutes]

/** Compiles only when `T` is never; when it is not, tsc prints it: the list of what drifted. */
const inStep = <T extends never>(_drift?: T): void => undefined

describe('the panel events follow the engine events', () => {
  it('routes every engine event, and only those, to a panel event', () => {
    expectTypeOf<keyof EventRoutes>().toEqualTypeOf<GuardEvent['type']>()
    expectTypeOf<EventRoutes[keyof EventRoutes]['as']>().toExtend<PanelEvent['type']>()
  })

  it('routes every field of each engine event, with the same type where it is carried as it is', () => {
    inStep<EventDrift>()
  })

  it('routes every field of the engine agent and its snapshot to what the protocol lists', () => {
    inStep<Drift<'AgentInfo', AgentInfo, AgentDescriptor, AgentInfoRoutes>>()
    inStep<Drift<'AgentSnapshot', AgentSnapshot, AgentState, AgentSnapshotRoutes>>()
  })
})
