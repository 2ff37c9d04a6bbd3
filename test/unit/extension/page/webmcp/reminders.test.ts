// Reminders in the results of WebMCP tools, and stopAfter.
import { describe, expect, test } from 'vitest'
import { detailed, GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { configWith, pageRealm } from './fake-model-context.ts'
import { ARGS, ITEM, DETAILED, reminder, withTool, ofType } from './read-file-tool.ts'

describe('reminders in the results', () => {
  test("the gentle reminder after the third call, the detailed after the fifth: new result objects, the page's untouched", async () => {
    const realm = pageRealm()
    const made: unknown[] = []
    const { execute } = await withTool(realm, () => {
      const result = { content: [ITEM], extra: { kept: true } }
      made.push(result)
      return result
    })
    const results = Array.from({ length: 6 }, () => execute(ARGS) as { content: unknown[] })
    expect(results.map((r) => r.content)).toEqual([[ITEM], [ITEM], [ITEM, reminder(GENTLE)], [ITEM], [ITEM, reminder(DETAILED)], [ITEM]])
    expect(results.map((r, n) => r === made[n])).toEqual([true, true, false, true, false, true])
    expect(results[2]).toEqual({ content: [ITEM, reminder(GENTLE)], extra: { kept: true } })
    expect(made.every((r) => JSON.stringify(r) === JSON.stringify({ content: [ITEM], extra: { kept: true } }))).toBe(true)
    expect(results[2]!.content[0]).toBe((made[2] as { content: unknown[] }).content[0])
    expect(ofType(realm.events, 'reminder').map((e) => [e.agentId, e.seq, e.level, e.text, e.placement, e.withheld])).toEqual([
      ['webmcp:1', 3, 'gentle', GENTLE, 'content[1]', undefined],
      ['webmcp:1', 5, 'detailed', DETAILED, 'content[1]', undefined],
    ])
  })

  test('through executeTool the agent reads them in the JSON text', async () => {
    const realm = pageRealm()
    await withTool(realm)
    const texts: string[] = []
    for (let i = 0; i < 3; i++) texts.push(await realm.call('read_file', ARGS))
    expect(texts[0]).toBe('{"content":[{"type":"text","text":"contents of a.txt"}],"extra":{"kept":true}}')
    expect(JSON.parse(texts[2]!)).toEqual({ content: [ITEM, reminder(GENTLE)], extra: { kept: true } })
    expect(ofType(realm.events, 'call')).toHaveLength(3)
  })

  test('a result without a content list (a string, an object without content, one with toJSON, an error) goes back as it came; the panel says why', async () => {
    for (const make of [() => 'plain text', () => ({ text: 'no list' }), () => ({ content: [ITEM], toJSON: () => 'mine' }), () => ({ content: 'not a list' })]) {
      const realm = pageRealm()
      const results: unknown[] = []
      const made: unknown[] = []
      const { execute } = await withTool(realm, () => {
        const value = make()
        made.push(value)
        return value
      })
      for (let i = 0; i < 3; i++) results.push(execute(ARGS))
      expect(results).toEqual(made)
      results.forEach((r, n) => expect(r).toBe(made[n]))
      expect(ofType(realm.events, 'reminder').map((e) => e.withheld)).toEqual(['no-content'])
    }
  })

  test('resultAware: a call whose result changed starts a new run', async () => {
    const realm = pageRealm()
    realm.config = configWith({ resultAware: true })
    let n = 0
    const { execute } = await withTool(realm, () => ({ content: [{ type: 'text', text: `poll ${((n += 1)) < 3 ? 'waiting' : 'done'}` }] }))
    for (let i = 0; i < 4; i++) execute(ARGS)
    expect(ofType(realm.events, 'call').map((e) => [e.count, e.result])).toEqual([
      [1, expect.stringContaining('waiting')],
      [2, expect.stringContaining('waiting')],
      [1, expect.stringContaining('done')],
      [2, expect.stringContaining('done')],
    ])
    expect(ofType(realm.events, 'reset').map((e) => e.reason)).toEqual(['result-changed'])
  })

  test('an MCP error result (isError: true) is an error call', async () => {
    const realm = pageRealm()
    const { execute } = await withTool(realm, () => ({ content: [ITEM], isError: true }))
    execute(ARGS)
    expect(ofType(realm.events, 'call').map((e) => e.isError)).toEqual([true])
  })
})

describe('stopAfter', () => {
  test('guard: the call past the limit does not run; the agent reads the feedback as an error result; the run counts it as denied', async () => {
    const realm = pageRealm()
    realm.config = configWith({ stopAfter: 3 })
    const { execute, runs } = await withTool(realm)
    const results = Array.from({ length: 4 }, () => execute(ARGS))
    expect(runs).toHaveLength(3)
    const [blocked] = ofType(realm.events, 'blocked')
    expect(blocked).toMatchObject({ agentId: 'webmcp:1', tool: 'read_file', count: 3 })
    expect(blocked!.wouldBlock).toBeUndefined()
    expect(results[3]).toEqual({ content: [{ type: 'text', text: blocked!.feedback }], isError: true })
    expect(ofType(realm.events, 'call').map((e) => [e.denied, e.count])).toEqual([
      [false, 1],
      [false, 2],
      [false, 3],
      [true, 4],
    ])
    // Through executeTool, the agent gets the same answer as JSON text; a reminder due on a
    // refused call goes with its feedback.
    const text = await realm.call('read_file', ARGS)
    const second = ofType(realm.events, 'blocked')[1]!
    expect(second.feedback).toContain('already called 4 times')
    expect(JSON.parse(text)).toEqual({ content: [{ type: 'text', text: second.feedback }, reminder(detailed('read_file', 5, '{"path":"a.txt"}'))], isError: true })
    expect(runs).toHaveLength(3)
  })

  test('observe: the call runs, and the panel hears it would have been blocked', async () => {
    const realm = pageRealm()
    realm.mode = 'observe'
    realm.config = configWith({ stopAfter: 3 })
    const { execute, runs } = await withTool(realm)
    for (let i = 0; i < 4; i++) execute(ARGS)
    expect(runs).toHaveLength(4)
    expect(ofType(realm.events, 'blocked').map((e) => [e.count, e.wouldBlock])).toEqual([[3, true]])
  })
})
