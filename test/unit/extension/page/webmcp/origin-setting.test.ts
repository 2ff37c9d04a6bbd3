// The WebMCP hooks under each per-origin setting.
import { describe, expect, test } from 'vitest'
import { pageRealm } from './fake-model-context.ts'
import { ARGS, ITEM, withTool, ofType } from './read-file-tool.ts'

describe("the origin's setting", () => {
  test("observe: the reminders are shown where they would go, the results are the tool's own", async () => {
    const realm = pageRealm()
    realm.mode = 'observe'
    const made: unknown[] = []
    const { execute } = await withTool(realm, () => {
      const value = { content: [ITEM] }
      made.push(value)
      return value
    })
    const results = Array.from({ length: 5 }, () => execute(ARGS))
    results.forEach((r, n) => expect(r).toBe(made[n]))
    expect(ofType(realm.events, 'reminder').map((e) => [e.level, e.placement, e.withheld])).toEqual([
      ['gentle', 'content[1]', 'observe'],
      ['detailed', 'content[1]', 'observe'],
    ])
  })

  test('off: the tool runs as registered, nothing is analysed, nothing reported; the setting is read on every call', async () => {
    const realm = pageRealm()
    realm.mode = 'off'
    const made: unknown[] = []
    const { execute, runs } = await withTool(realm, () => {
      const value = { content: [ITEM] }
      made.push(value)
      return value
    })
    const results = Array.from({ length: 5 }, () => execute(ARGS))
    results.forEach((r, n) => expect(r).toBe(made[n]))
    expect(await realm.call('read_file', ARGS)).toBe('{"content":[{"type":"text","text":"contents of a.txt"}]}')
    expect(runs).toHaveLength(6)
    expect(realm.asked()).toBe(0)
    expect(realm.events).toEqual([])
    realm.mode = 'guard'
    execute(ARGS)
    expect(ofType(realm.events, 'call').map((e) => e.count)).toEqual([1])
  })
})
