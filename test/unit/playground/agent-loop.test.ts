import { afterEach, describe, expect, test, vi } from 'vitest'
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { guardPort } from '../../../playground/agent/guard-port.ts'
import { Session } from '../../../playground/agent/session.ts'
import { Turns } from '../../../playground/agent/turns.ts'

afterEach(() => vi.unstubAllGlobals())

type Reply = { content?: string | null; tool_calls?: unknown[] }

/** A model that answers from a list and records every request body. */
function stubModel(replies: Reply[], status = 200) {
  const bodies: { messages: { role: string; content: unknown }[] }[] = []
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    bodies.push(JSON.parse(String(init.body)))
    if (status !== 200) return new Response(JSON.stringify({ error: { message: 'overloaded' } }), { status })
    const message = { role: 'assistant', content: null, ...replies[bodies.length - 1] }
    return new Response(JSON.stringify({ choices: [{ index: 0, message }] }))
  })
  return bodies
}

const session = (options: { stepLimit?: number; guard?: boolean } = {}) =>
  new Session({
    endpoint: { baseUrl: 'http://model.test/v1/', model: 'm', apiKey: 'k' },
    lead: { name: 'lead', system: 'sys' },
    permissions: { allowDelete: false },
    ...(options.guard === false ? {} : { guard: guardPort(createRepeatToolGuard(RECOMMENDED_CONFIG), 'playground', () => {}) }),
    stepLimit: options.stepLimit ?? 5,
  })

const grep = (id?: string, args = '{"pattern":"TODO"}') => ({ ...(id ? { id } : {}), type: 'function', function: { name: 'grep', arguments: args } })

describe('the agent loop', () => {
  test('stops at the step limit', async () => {
    stubModel(Array(3).fill({ tool_calls: [grep('a')] }))
    const s = session({ stepLimit: 2 })
    await s.send('go')
    expect(s.lead.status).toBe('step-limit')
    expect(s.lead.entries.filter((e) => e.kind === 'assistant')).toHaveLength(2)
  })

  test('bad JSON arguments and missing call ids become readable results', async () => {
    const bodies = stubModel([{ tool_calls: [grep(undefined, '{oops')] }, { content: 'done' }])
    const s = session()
    await s.send('go')
    const result = s.lead.entries.find((e) => e.kind === 'tool-result')!
    expect(result.message.tool_call_id).toBe('call_2_0')
    expect(result.message.content).toMatch(/^Error: the arguments of grep are not valid JSON/)
    expect(bodies[1]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool'])
  })

  test('a model error fails the agent with the server message', async () => {
    stubModel([], 503)
    const s = session()
    await s.send('go')
    expect(s.lead.status).toBe('failed')
    expect(s.lead.error).toBe('http://model.test/v1/chat/completions answered 503: overloaded')
  })

  test('stop aborts the request in flight', async () => {
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason))))
    const s = session()
    const done = s.send('go')
    s.stop()
    await done
    expect(s.lead.status).toBe('stopped')
  })

  test('a guard that throws never fails the call', async () => {
    stubModel([{ tool_calls: [grep('a')] }, { content: 'done' }])
    const faults: string[] = []
    const broken = { config: RECOMMENDED_CONFIG, promptSubmit: () => {}, postExecute: async () => Promise.reject(new Error('boom')) }
    const s = new Session({
      endpoint: { baseUrl: 'http://model.test/v1', model: 'm' },
      lead: { name: 'lead', system: 'sys' },
      permissions: { allowDelete: false },
      guard: guardPort(broken, 'extension', (f) => faults.push(f)),
      stepLimit: 5,
    })
    await s.send('go')
    expect(s.lead.status).toBe('answered')
    expect(faults).toEqual(['postExecute(grep) failed: boom'])
  })
})

describe('turns', () => {
  test('are given in the order asked, and handed on while a tool waits', async () => {
    const turns = new Turns()
    const log: string[] = []
    const agent = async (name: string, steps: number) => {
      for (let i = 0; i < steps; i++) {
        const turn = await turns.take()
        log.push(`${name}${i}`)
        await Promise.resolve()
        turn.release()
      }
    }
    await Promise.all([agent('a', 3), agent('b', 3)])
    expect(log).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2'])

    log.length = 0
    const first = await turns.take()
    const other = agent('c', 2)
    await first.yieldUntil(other)
    log.push('back')
    first.release()
    expect(log).toEqual(['c0', 'c1', 'back'])
  })
})

describe('the loop asks the guard before each call', () => {
  test('a blocked call does not run: the model reads the feedback, the guard counts it as denied', async () => {
    const engine = createRepeatToolGuard({ ...RECOMMENDED_CONFIG, stopAfter: 2 })
    const events: string[] = []
    engine.subscribe((e) => void (e.type === 'call' ? events.push(`call:${e.denied}`) : e.type === 'blocked' ? events.push('blocked') : undefined))
    const bodies = stubModel([{ tool_calls: [grep('a'), grep('b'), grep('c')] }, { content: 'done' }])
    const s = new Session({
      endpoint: { baseUrl: 'http://model.test/v1/', model: 'm' },
      lead: { name: 'lead', system: 'sys' },
      permissions: { allowDelete: false },
      guard: guardPort(engine, 'playground', () => {}),
      stepLimit: 3,
    })
    await s.send('go')
    const results = s.lead.entries.filter((e) => e.kind === 'tool-result')
    expect(results.map((r) => r.denied)).toEqual([false, false, true])
    expect(results.map((r) => r.blocked)).toEqual([undefined, undefined, true])
    expect(results[2]!.message.content).toMatch(/^Blocked by repeat-tool-guard: grep was already called 2 times/)
    expect(bodies[1]!.messages.filter((m) => m.role === 'tool').at(-1)).toMatchObject({ content: results[2]!.message.content })
    expect(events).toEqual(['call:false', 'call:false', 'blocked', 'call:true'])
  })

  test('a guard whose preExecute throws never stops the call', async () => {
    stubModel([{ tool_calls: [grep('a')] }, { content: 'done' }])
    const faults: string[] = []
    const engine = createRepeatToolGuard(RECOMMENDED_CONFIG)
    const broken = {
      ...engine,
      postExecute: engine.postExecute,
      promptSubmit: engine.promptSubmit,
      config: engine.config,
      preExecute: () => {
        throw new Error('boom')
      },
    }
    const s = new Session({
      endpoint: { baseUrl: 'http://model.test/v1/', model: 'm' },
      lead: { name: 'lead', system: 'sys' },
      permissions: { allowDelete: false },
      guard: guardPort(broken, 'playground', (f) => faults.push(f)),
      stepLimit: 3,
    })
    await s.send('go')
    expect(s.lead.entries.find((e) => e.kind === 'tool-result')!.denied).toBe(false)
    expect(faults).toEqual(['preExecute(grep) failed: boom'])
  })
})
