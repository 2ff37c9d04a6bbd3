import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, GuardConfigError, RECOMMENDED_CONFIG, type GuardConfig } from '../../../engine/index.ts'
import { createLazyGuard } from '../../../extension/src/page/lazy-guard.ts'

/** A lazy guard that records every config its engine was started with. */
function lazy() {
  const started: GuardConfig[] = []
  const guard = createLazyGuard((config) => {
    started.push(config)
    return createRepeatToolGuard(config)
  })
  return { guard, started }
}

describe('the lazy page guard', () => {
  it('starts no engine to answer its config, and starts one on the first call', async () => {
    const { guard, started } = lazy()
    expect(guard.config).toEqual(RECOMMENDED_CONFIG)
    expect(guard.built).toBeUndefined()
    expect(started).toEqual([])
    const agent = {}
    for (let i = 0; i < 2; i++) guard.observe({ agent, name: 'grep', arguments: {} })
    expect((await guard.postExecute({ agent, name: 'grep', arguments: {} })).additionalContexts).toHaveLength(1)
    expect(started).toEqual([RECOMMENDED_CONFIG])
    expect(guard.built).toBeDefined()
  })

  it('starts its engine under a config delivered before, and keeps the config in force when one is refused', () => {
    const { guard, started } = lazy()
    guard.deliver({ ...RECOMMENDED_CONFIG, thresholds: [2, 4] })
    expect(() => guard.deliver({ ...RECOMMENDED_CONFIG, thresholds: [1] })).toThrow(GuardConfigError)
    expect(guard.config.thresholds).toEqual([2, 4])
    expect(guard.snapshot()).toEqual([])
    expect(started).toEqual([{ ...RECOMMENDED_CONFIG, thresholds: [2, 4] }])
    guard.deliver({ ...RECOMMENDED_CONFIG, thresholds: [3, 6] })
    expect(guard.built!.config.thresholds).toEqual([3, 6])
    expect(() => guard.deliver({ ...RECOMMENDED_CONFIG, thresholds: [1] })).toThrow(GuardConfigError)
    expect(guard.config.thresholds).toEqual([3, 6])
  })

  it('hands every call of the page API to the engine', () => {
    const { guard } = lazy()
    const events: string[] = []
    const stop = guard.subscribe((event) => void events.push(event.type))
    guard.configure({ thresholds: [2] })
    const agent = { name: 'a' }
    guard.observe({ agent, name: 'ls', arguments: {} })
    guard.promptSubmit(agent)
    stop()
    expect(events).toEqual(['config', 'agent-seen', 'call', 'chain-reset'])
  })
})
