// Faults inside the WebMCP hooks never reach the page.
import { describe, expect, test } from 'vitest'
import { pageRealm } from './fake-model-context.ts'
import { ARGS, ITEM, withTool, ofType } from './read-file-tool.ts'

describe('faults never reach the page', () => {
  test('without its analysis a call goes on exactly as the tool made it', async () => {
    const realm = pageRealm()
    realm.broken = 'analysis'
    const made: unknown[] = []
    const { execute } = await withTool(realm, () => {
      const value = { content: [ITEM] }
      made.push(value)
      return value
    })
    for (let i = 0; i < 3; i++) expect(execute(ARGS)).toBe(made[i])
    expect(realm.events).toEqual([])
  })

  test('a config that cannot be read: the call goes on as it came, and the panel gets a fault', async () => {
    const realm = pageRealm()
    const { execute } = await withTool(realm)
    execute(ARGS)
    realm.broken = 'config'
    const made = { content: [ITEM] }
    const second = await withTool(realm, () => made, 'other_tool')
    expect(second.execute(ARGS)).toBe(made)
    expect(ofType(realm.events, 'fault').map((e) => e.message)).toEqual(['WebMCP: the tool call went on unchanged: no config', 'WebMCP: the tool call went on unchanged: no config'])
    // Read again: the calls are counted from where they were.
    realm.broken = undefined
    execute(ARGS)
    expect(ofType(realm.events, 'call').map((e) => [e.tool, e.count])).toEqual([
      ['read_file', 1],
      ['read_file', 2],
    ])
  })
})
