// `ignoreArgumentKeys` through the agent loop: calls that differ only in volatile keys (a fresh
// request id, a nonce) are one call, at any depth; previews and events still show them as called
// (docs/detectors.md, "Ignored argument keys").
import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, type GuardConfigInput } from '../../../engine/index.ts'
import { ofType, recordEvents } from './support/events.ts'
import { firedAt, textsIn } from './support/fired.ts'
import { oneCallPerStep, runScenario } from './support/scenario.ts'
import { blockText, cycleText, detailed, GENTLE } from './support/texts.ts'

/** `n` reads of one file, each with a fresh request id, as a client that stamps every call sends them. */
const stampedReads = (n: number) => Array.from({ length: n }, (_, i) => ['read_file', { path: 'a.ts', requestId: `req-${i + 1}` }] as const)

describe('ignoreArgumentKeys', () => {
  it('counts calls that differ only in an ignored key as one run, previewing the arguments as called', async () => {
    const { agent, events, guard } = await runScenario(oneCallPerStep(stampedReads(5)), { ignoreArgumentKeys: ['requestId'] })
    expect(firedAt(agent.history)).toEqual([
      [3, 'read_file × 3'],
      [5, 'read_file × 5'],
    ])
    expect(textsIn(agent.history)).toEqual([GENTLE, detailed('read_file', 5, '{"path":"a.ts","requestId":"req-5"}')])
    expect(ofType(events, 'call').map((e) => [e.count, e.canonicalArguments])).toEqual(stampedReads(5).map(([, args], i) => [i + 1, JSON.stringify(args)]))
    expect(ofType(events, 'chain-reset')).toEqual([])
    expect(guard.snapshot()).toMatchObject([{ tool: 'read_file', canonicalArguments: '{"path":"a.ts","requestId":"req-5"}', count: 5 }])
  })

  it('finds no run in the same calls by default', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(stampedReads(5)))
    expect(firedAt(agent.history)).toEqual([])
    expect(ofType(events, 'chain-reset').map((e) => e.reason)).toEqual(['different-call', 'different-call', 'different-call', 'different-call'])
  })

  it('removes the keys at any depth, inside arrays too, and still tells other values apart', async () => {
    const call = (nonce: number, q: string) => ['grep', { query: { text: q, meta: { nonce } }, filters: [{ path: 'src', nonce }] }] as const
    const script = oneCallPerStep([call(1, 'auth'), call(2, 'auth'), call(3, 'auth'), call(4, 'login'), call(5, 'login')])
    const { agent, events } = await runScenario(script, { ignoreArgumentKeys: ['nonce'] })
    expect(firedAt(agent.history)).toEqual([[3, 'grep × 3']])
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 1, 2])
  })

  it('reads arguments given as JSON text, and leaves a text that is no JSON as it is', async () => {
    const json = (id: number) => ['read_file', `{ "path": "a.ts", "requestId": ${id} }`] as const
    const { agent } = await runScenario(oneCallPerStep([json(1), json(2), json(3)]), { ignoreArgumentKeys: ['requestId'] })
    expect(textsIn(agent.history)).toEqual([GENTLE])
    // Looks like JSON but is none: compared whole, so two such texts that differ are two calls.
    const guard = createRepeatToolGuard({ ignoreArgumentKeys: ['requestId'], thresholds: [2] })
    const agentObject = {}
    const fired = ['{"requestId":1', '{"requestId":2', '{"requestId":2'].map((text) => guard.observe({ agent: agentObject, name: 'note', arguments: text }))
    expect(fired.map((m) => m?.source.summary)).toEqual([undefined, undefined, 'note × 2'])
  })

  it('cuts a key whose name the canonical text escapes, and a name found in a value cuts nothing', async () => {
    // A text holding no ignored name is left as it is without a walk (key-names.ts); a name with a
    // quote is written escaped, so the text must be walked for it.
    const quoted = 'say "id"'
    const calls = [1, 2, 3].map((n) => ['note', { [quoted]: n, text: 'hello' }] as const)
    const { agent } = await runScenario(oneCallPerStep(calls), { ignoreArgumentKeys: [quoted] })
    expect(firedAt(agent.history)).toEqual([[3, 'note × 3']])
    // `requestId` only as a value: the calls differ in `n`, so there is no run.
    const mentions = [1, 2, 3].map((n) => ['note', { field: 'requestId', n }] as const)
    const { agent: other } = await runScenario(oneCallPerStep(mentions), { ignoreArgumentKeys: ['requestId'] })
    expect(firedAt(other.history)).toEqual([])
  })

  it('finds a name after the same letters inside a longer key', async () => {
    // The search finds `nonce` in `anonce` first (no quotes around it there) and goes on to the member.
    const calls = [1, 2, 3].map((n) => ['grep', { anonce: 'kept', nonce: n, query: 'auth' }] as const)
    const { agent } = await runScenario(oneCallPerStep(calls), { ignoreArgumentKeys: ['nonce'] })
    expect(firedAt(agent.history)).toEqual([[3, 'grep × 3']])
    // Only inside longer keys: nothing is cut, so calls that differ there are other calls.
    const longer = [1, 2, 3].map((n) => ['grep', { anonce: n, nonces: n }] as const)
    const { agent: other } = await runScenario(oneCallPerStep(longer), { ignoreArgumentKeys: ['nonce'] })
    expect(firedAt(other.history)).toEqual([])
  })

  it("lets a tools entry's list replace the top level's, and [] compare every key", async () => {
    const config: GuardConfigInput = {
      ignoreArgumentKeys: ['requestId'],
      thresholds: [3],
      tools: [
        { match: 'grep', ignoreArgumentKeys: ['nonce'] },
        { match: 'write_file', ignoreArgumentKeys: [] },
      ],
    }
    const runOf = async (calls: readonly (readonly [string, unknown])[]) => ofType((await runScenario(oneCallPerStep(calls), config)).events, 'call').map((e) => e.count)
    const three = (make: (i: number) => readonly [string, unknown]) => [make(1), make(2), make(3)]
    expect(await runOf(three((i) => ['grep', { pattern: 'x', path: 's', nonce: i }]))).toEqual([1, 2, 3])
    expect(await runOf(three((i) => ['grep', { pattern: 'x', path: 's', requestId: i }]))).toEqual([1, 1, 1])
    expect(await runOf(three((i) => ['write_file', { content: 'x', requestId: i }]))).toEqual([1, 1, 1])
    expect(await runOf(three((i) => ['read_file', { path: 'a', requestId: i }]))).toEqual([1, 2, 3])
  })

  it('blocks a call with a fresh request id that would make the run longer than stopAfter', async () => {
    const { agent, events } = await runScenario(oneCallPerStep(stampedReads(4)), { ignoreArgumentKeys: ['requestId'], stopAfter: 3 })
    const outputs = agent.history.flatMap((m) => (m.role === 'tool' ? [m.content[0].output] : []))
    expect(outputs[3]).toBe(blockText('read_file', 3, 3))
    expect(ofType(events, 'blocked').map((e) => e.count)).toEqual([3])
  })

  it('finds a cycle through the ignored keys, each call previewed as called', async () => {
    const calls = [1, 2, 3].flatMap((i) => [['read_file', { path: 'a', requestId: i }] as const, ['grep', { pattern: 'x', path: 'src', requestId: i }] as const])
    const { agent, events } = await runScenario(oneCallPerStep(calls), { ignoreArgumentKeys: ['requestId'], cycles: { maxPeriod: 2, repeats: 2 } })
    expect(firedAt(agent.history)).toEqual([[4, 'cycle × 2']])
    expect(textsIn(agent.history)).toEqual([
      cycleText(2, [
        ['read_file', '{"path":"a","requestId":2}'],
        ['grep', '{"path":"src","pattern":"x","requestId":2}'],
      ]),
    ])
    expect(ofType(events, 'reminder').map((e) => [e.detector, e.level])).toEqual([['cycle', 'cycle']])
  })

  it('compares by the new list from the call after a configure, also within a run it recognises by shape', () => {
    const guard = createRepeatToolGuard({ thresholds: [5] })
    const events = recordEvents(guard)
    const agent = {}
    const read = (requestId: number) => guard.observe({ agent, name: 'read_file', arguments: { path: 'a', requestId } })
    read(1)
    read(1)
    read(1)
    guard.configure({ ignoreArgumentKeys: ['requestId'] })
    read(1)
    expect(read(2)?.source.summary).toBe('read_file × 5')
    guard.configure({ ignoreArgumentKeys: [] })
    read(2)
    read(3)
    // Without the list, the next call is compared whole again: another request id is another call.
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 2, 3, 4, 5, 1, 1])
  })
})
