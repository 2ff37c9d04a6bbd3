// What the panel gets from the WebMCP hooks.
import { describe, expect, test } from 'vitest'
import { checkPanelEvent } from '../../../../../extension/src/protocol/validate.ts'
import { GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { configWith, pageRealm } from './fake-model-context.ts'
import { ARGS, ITEM, reminder, withTool, ofType } from './read-file-tool.ts'

describe('what the panel gets', () => {
  test('one agent for the frame, of kind webmcp, reached through WebMCP; every event valid; the snapshot after a reconnect', async () => {
    const realm = pageRealm()
    expect(realm.snapshot()).toEqual([])
    const { execute } = await withTool(realm)
    for (let i = 0; i < 4; i++) execute(ARGS)
    expect(ofType(realm.events, 'agent')).toEqual([{ type: 'agent', at: expect.any(Number), agent: { id: 'webmcp:1', kind: 'webmcp', label: 'WebMCP tools', reach: 'webmcp' } }])
    for (const event of realm.events) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
    expect(realm.events.some((e) => e.type === 'config')).toBe(false)
    expect(realm.snapshot()).toEqual([{ id: 'webmcp:1', kind: 'webmcp', label: 'WebMCP tools', reach: 'webmcp', tool: 'read_file', args: '{"path":"a.txt"}', count: 4, nextThreshold: 5 }])
  })

  test('a config change from the panel applies to the next call', async () => {
    const realm = pageRealm()
    const { execute } = await withTool(realm)
    execute(ARGS)
    realm.config = configWith({ thresholds: [2] })
    const second = execute(ARGS) as { content: unknown[] }
    expect(second.content).toEqual([ITEM, reminder(GENTLE)])
  })
})
