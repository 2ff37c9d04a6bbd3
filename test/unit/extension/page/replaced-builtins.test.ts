// A page replaces built-ins after the guard is installed: with throwing versions (a hostile or
// broken script), with fake timers, with a JSON polyfill. Its calls through the page API always
// complete; the guard either keeps reminding or reports a fault. The hooks over its transports,
// with every built-in trapped, are in trapped-builtins.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRepeatToolGuard, GuardConfigError, type PostToolDecision } from '../../../../engine/index.ts'
import { createPageGuard, type PageGuard } from '../../../../extension/src/page/page-api.ts'
import { GENTLE as GENTLE_REMINDER } from '../../engine/support/texts.ts'
import {
  getOwnPropertyDescriptor,
  NativeDate,
  nativeJson,
  PAGE_ERROR,
  thrower,
  whileReplaced,
  whileReplacedAsync,
  setup,
  callEverything,
  reminderTexts,
  CORPUS,
  PLAIN_ARGS,
  PLAIN_TEXT,
} from './support/replaced-builtins-corpus.ts'

afterEach(() => {
  vi.useRealTimers()
})

describe('a page that replaces a built-in with a throwing one after the guard is installed', () => {
  it.each(CORPUS)('$name: every call completes; the guard $outcome', async ({ target, key, outcome }) => {
    const { api, faults, events } = setup()
    const before = getOwnPropertyDescriptor(target, key)
    const { decisions, observed, snapshot, afterPrompt } = whileReplaced(target, key, thrower, () => callEverything(api))
    expect(getOwnPropertyDescriptor(target, key)).toEqual(before)
    const settled = await Promise.all(decisions)
    for (const decision of settled) expect(decision).toMatchObject({ kind: 'continue' })
    expect(snapshot).toEqual(expect.arrayContaining([expect.objectContaining({ label: 'main' })]))
    expect(afterPrompt).toEqual(expect.arrayContaining([expect.objectContaining({ label: 'main', count: 0 })]))
    if (outcome === 'reminds') {
      expect(faults).toEqual([])
      expect(settled.map(reminderTexts)).toEqual([[], [], [GENTLE_REMINDER], [], [expect.stringContaining('- consecutive_calls: 5')]])
      expect(observed).toBeUndefined()
      expect(snapshot).toEqual([
        expect.objectContaining({ label: 'main', tool: 'read_file', count: 5 }),
        expect.objectContaining({ label: 'other', tool: 'grep', canonicalArguments: '{"n":[1,2],"q":"x"}', count: 1 }),
      ])
      expect(events.filter((e) => e.type === 'chain-reset')).toEqual([expect.objectContaining({ reason: 'prompt', previousCount: 5 })])
    } else {
      // Each failed call (5 postExecute, 1 observe) is reported, naming what the page threw;
      // nothing is counted on a guess.
      expect(faults).toHaveLength(6)
      for (const fault of faults) expect(fault).toContain(PAGE_ERROR)
      expect(settled.flatMap(reminderTexts)).toEqual([])
    }
  })

  // Plain data the engine writes itself is written with built-ins captured at start-up.
  it.each(CORPUS)('$name: a flat record, and long nested JSON text, still remind', async ({ target, key }) => {
    const { api, faults } = setup()
    const agent = { name: 'main' }
    const decisions = whileReplaced(target, key, thrower, () => {
      const made: Promise<PostToolDecision>[] = []
      for (let i = 0; i < 5; i++) made[i] = api.postExecute({ agent, name: 'read_file', arguments: PLAIN_ARGS }, { isError: false })
      for (let i = 0; i < 3; i++) made[5 + i] = api.postExecute({ agent, name: 'grep', arguments: PLAIN_TEXT }, { isError: false })
      return made
    })
    expect((await Promise.all(decisions)).map(reminderTexts)).toEqual([[], [], [GENTLE_REMINDER], [], [expect.stringContaining('- consecutive_calls: 5')], [], [], [GENTLE_REMINDER]])
    expect(faults).toEqual([])
  })

  // The extension builds its guard on the page's first call, maybe after the page replaced one.
  it.each(CORPUS)('$name: a guard built while it is replaced builds and keeps count', ({ target, key }) => {
    const { snapshot } = whileReplaced(target, key, thrower, () => callEverything(setup().api))
    expect(snapshot).toEqual(expect.arrayContaining([expect.objectContaining({ label: 'main' })]))
  })

  it('keeps every timestamp on the real clock, whatever the page did to Date', () => {
    const { api, events } = setup()
    const before = NativeDate.now()
    whileReplaced(Date, 'now', thrower, () => api.observe({ agent: {}, name: 'grep' }))
    expect(events.length).toBeGreaterThan(0)
    for (const event of events) expect(event.at).toBeGreaterThanOrEqual(before)
  })

  it('awaits the downstream plugin while Promise.prototype.then throws', async () => {
    const { api, faults } = setup()
    const agent = {}
    const theirs = { role: 'user', content: [{ type: 'text', text: 'lint: 2 warnings' }] }
    const downstream = async (): Promise<PostToolDecision> => ({ kind: 'continue', additionalContexts: [theirs] })
    const decisions = await whileReplacedAsync(Promise.prototype, 'then', thrower, async () => {
      const d1 = await api.postExecute({ agent, name: 'grep' }, {}, downstream)
      const d2 = await api.postExecute({ agent, name: 'grep' }, {}, downstream)
      const d3 = await api.postExecute({ agent, name: 'grep' }, {}, downstream)
      return [d1, d2, d3]
    })
    expect(decisions.map(reminderTexts)).toEqual([['lint: 2 warnings'], ['lint: 2 warnings'], [GENTLE_REMINDER, 'lint: 2 warnings']])
    expect(faults).toEqual([])
  })

  it('keeps the config in force when configure meets a throwing built-in, and still rejects a bad config', () => {
    const { api, faults } = setup()
    const inForce = api.config
    expect(whileReplaced(Object, 'keys', thrower, () => api.configure({ thresholds: [2] }))).toBe(inForce)
    expect(api.config).toBe(inForce)
    expect(faults).toEqual([`configure: ${PAGE_ERROR}`])
    expect(() => api.configure({ thresholds: [1] })).toThrow(GuardConfigError)
  })

  it('reports the fault even when reporting it fails', () => {
    const guard = createRepeatToolGuard()
    const api = createPageGuard(guard, 1, thrower)
    expect(whileReplaced(Object, 'keys', thrower, () => api.observe({ agent: {}, name: 'grep', arguments: { q: 1 } }))).toBeUndefined()
  })
})

describe('a page that replaces Date or JSON with working versions', () => {
  const fiveReads = async (api: PageGuard) => {
    const agent = { name: 'main' }
    const out: string[][] = []
    for (let i = 0; i < 5; i++) out.push(reminderTexts(await api.postExecute({ agent, name: 'grep', arguments: '{"q":"say \\"hi\\"","n":[1]}' })))
    return out
  }
  const AT_3_AND_5 = [[], [], [GENTLE_REMINDER], [], [expect.stringContaining('- tool: grep')]]

  it('still reminds at 3 and 5 with Date.now frozen at one value', async () => {
    const { api, events } = setup()
    expect(
      await whileReplacedAsync(
        Date,
        'now',
        () => 42,
        () => fiveReads(api),
      ),
    ).toEqual(AT_3_AND_5)
    expect(events.filter((e) => e.at === 42)).toEqual([])
  })

  it('still reminds at 3 and 5 under fake timers that replace the whole Date class', async () => {
    const { api, events } = setup()
    vi.useFakeTimers({ toFake: ['Date'], now: 0 })
    expect(Date).not.toBe(NativeDate)
    expect(await fiveReads(api)).toEqual(AT_3_AND_5)
    vi.useRealTimers()
    expect(events.filter((e) => e.at < 1_000_000)).toEqual([])
  })

  it('still reminds at 3 and 5 with a JSON polyfill that escapes differently', async () => {
    const { api, faults } = setup()
    const polyfill = {
      // A working implementation of its own: every string escapes `"` as \u0022.
      stringify: (value: unknown) => nativeJson.stringify(value)?.replaceAll('\\"', '\\u0022'),
      parse: (text: string) => nativeJson.parse(text) as unknown,
    }
    expect(await whileReplacedAsync(globalThis, 'JSON', polyfill, () => fiveReads(api))).toEqual(AT_3_AND_5)
    expect(faults).toEqual([])
  })
})
