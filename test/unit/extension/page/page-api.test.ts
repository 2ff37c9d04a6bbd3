import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, GuardConfigError, RECOMMENDED_CONFIG, type RepeatToolGuard } from '../../../../engine/index.ts'
import { createPageGuard } from '../../../../extension/src/page/page-api.ts'

const setup = (guard: RepeatToolGuard = createRepeatToolGuard(RECOMMENDED_CONFIG)) => {
  const faults: string[] = []
  return { api: createPageGuard(guard, 1, (m) => void faults.push(m)), faults, guard }
}

describe('the page-facing guard', () => {
  it('is the engine guard, frozen, with the protocol version', async () => {
    const { api } = setup()
    expect(Object.isFrozen(api)).toBe(true)
    expect(api.version).toBe(1)
    expect(api.config).toEqual(RECOMMENDED_CONFIG)
    const agent = {}
    for (let i = 0; i < 2; i++) await api.postExecute({ agent, name: 'grep', arguments: { q: 1 } })
    const third = await api.postExecute({ agent, name: 'grep', arguments: { q: 1 } }, {}, () => ({ kind: 'block', feedback: 'no', additionalContexts: ['mine'] }))
    expect(third).toMatchObject({ kind: 'block', feedback: 'no', additionalContexts: [expect.objectContaining({ role: 'user' }), 'mine'] })
    expect(api.snapshot()).toEqual([expect.objectContaining({ tool: 'grep', count: 3 })])
  })

  it("passes the engine's preExecute through: continue by default, block at stopAfter", () => {
    const { api } = setup(createRepeatToolGuard({ stopAfter: 2 }))
    const agent = {}
    const call = { agent, name: 'grep', arguments: { q: 1 } }
    expect(api.preExecute(call)).toEqual({ kind: 'continue' })
    api.observe(call)
    api.observe(call)
    expect(api.preExecute(call)).toMatchObject({ kind: 'block', feedback: expect.stringContaining('(stopAfter: 2)') })
  })

  it("throws the engine's TypeError for bad arguments, untouched", async () => {
    const { api, faults } = setup()
    expect(() => api.observe(null as never)).toThrow(TypeError)
    expect(() => api.promptSubmit(3 as never)).toThrow(TypeError)
    expect(() => api.preExecute({ name: 3 } as never)).toThrow(TypeError)
    expect(() => api.subscribe(null as never)).toThrow(TypeError)
    await expect(api.postExecute({ name: '' })).rejects.toThrow(TypeError)
    expect(() => api.configure({ thresholds: [] })).toThrow(GuardConfigError)
    expect(faults).toEqual([])
  })

  it('turns an internal failure into a fault and lets the call go on', () => {
    const broken: RepeatToolGuard = {
      ...createRepeatToolGuard(),
      observe: () => {
        throw new RangeError('Maximum call stack size exceeded')
      },
      promptSubmit: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'chain')")
      },
      snapshot: () => {
        throw new Error('snapshot broke')
      },
      preExecute: () => {
        throw new Error('gate broke')
      },
    }
    const { api, faults } = setup(broken)
    expect(api.observe({ agent: {}, name: 'grep' })).toBeUndefined()
    expect(() => api.promptSubmit({})).not.toThrow()
    expect(api.snapshot()).toEqual([])
    expect(api.preExecute({ agent: {}, name: 'grep' })).toEqual({ kind: 'continue' })
    expect(faults).toEqual(['observe: Maximum call stack size exceeded', "promptSubmit: Cannot read properties of undefined (reading 'chain')", 'snapshot: snapshot broke', 'preExecute: gate broke'])
  })

  it("reads the live config and hands the engine's events to page listeners", () => {
    const { api } = setup()
    const seen: string[] = []
    const stop = api.subscribe((e) => void seen.push(e.type))
    api.configure({ thresholds: [2] })
    expect(api.config.thresholds).toEqual([2])
    stop()
    api.configure({ thresholds: [4] })
    expect(seen).toEqual(['config'])
  })
})
