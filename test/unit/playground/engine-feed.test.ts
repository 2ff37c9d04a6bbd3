import { describe, expect, test } from 'vitest'
import { createRepeatToolGuard, RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { createPanelStore } from '../../../extension/src/panel/store/panel-store.ts'
import { engineConfigSink, feedPanelStore } from '../../../playground/ui/engine-feed.ts'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("the playground's engine feeding the panel's store", () => {
  test('agents known before and after subscribing, their runs and reminders, the config', async () => {
    const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
    const store = createPanelStore()
    const lead = { name: 'lead' }
    guard.observe({ agent: lead, name: 'grep', arguments: { pattern: 'x' } })
    const stop = feedPanelStore(guard, store, 'http://playground.test/')
    const explorer = { name: 'explorer', parent: lead }
    for (let i = 0; i < 3; i++) guard.observe({ agent: explorer, name: 'read_file', arguments: { path: 'a' } })
    await settle()
    const rows = store.agents()
    expect(rows.map((r) => [r.record.descriptor.label, r.depth, r.record.count])).toEqual([
      ['lead', 0, 1],
      ['explorer', 1, 3],
    ])
    expect(rows[1]!.record.reminders).toBe(1)
    expect(store.config()).toEqual(RECOMMENDED_CONFIG)
    // A store fed on: once it has the next call, the stopped feed would have delivered it too.
    const fedOn = createPanelStore()
    feedPanelStore(guard, fedOn, 'http://playground.test/')
    stop()
    guard.observe({ agent: explorer, name: 'read_file', arguments: { path: 'a' } })
    await expect.poll(() => fedOn.agents()[1]?.record.count).toBe(4)
    expect(store.agents()[1]!.record.count).toBe(3)
  })

  test('the config sink applies to the engine and reports changes', async () => {
    const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
    const sink = engineConfigSink(guard)
    let changes = 0
    const unsubscribe = sink.subscribe!(() => changes++)
    await sink.apply({ ...RECOMMENDED_CONFIG, thresholds: [2, 4] })
    expect(guard.config.thresholds).toEqual([2, 4])
    expect(sink.current()).toBe(guard.config)
    expect(changes).toBe(1)
    unsubscribe()
  })
})
