// The wire guard's events read from an agent event stream, as panel events: a reminder due inside
// the server's loop is withheld as such whatever the origin's setting, and an agent of either
// agent-stream format is shown with its protocol's reach whatever transport carried it first.
import { describe, expect, it } from 'vitest'
import type { WireEvent } from '../../../../engine/wire/index.ts'
import { reachOfFormat, toPanelEvent } from '../../../../extension/src/protocol/from-wire.ts'
import { checkPanelEvent } from '../../../../extension/src/protocol/validate.ts'

const reminder = {
  type: 'reminder',
  at: 1,
  agentId: 2,
  seq: 3,
  tool: 'search',
  count: 3,
  level: 'gentle',
  message: { role: 'user', content: [{ type: 'text', text: 'You called search 3 times with the same arguments.' }] },
  placement: '',
  serverLoop: true,
} as unknown as WireEvent

describe('events read from a stream', () => {
  it("a reminder due inside the server's loop is withheld as 'server-loop', in guard and observe alike", () => {
    for (const mode of [undefined, 'observe'] as const) {
      const event = toPanelEvent(reminder, 'http://localhost/api/chat', mode)
      expect(event).toMatchObject({ type: 'reminder', agentId: 'wire:2', withheld: 'server-loop' })
      expect(event).not.toHaveProperty('placement')
      expect(checkPanelEvent(event).ok).toBe(true)
    }
    const { serverLoop: _, ...given } = reminder as { serverLoop: true }
    expect(toPanelEvent({ ...given, placement: 'messages[2]' } as unknown as WireEvent, '', undefined)).toMatchObject({ placement: 'messages[2]' })
    expect(toPanelEvent(given as unknown as WireEvent, '', undefined)).not.toHaveProperty('withheld')
  })

  it('an agent of the AI SDK UI or AG-UI format has its protocol for reach; any other its transport', () => {
    expect(reachOfFormat('ai-sdk-ui', 'fetch')).toBe('ui-stream')
    expect(reachOfFormat('ag-ui', 'xhr')).toBe('ag-ui')
    expect(reachOfFormat('openai-chat', 'xhr')).toBe('xhr')
    const agent = toPanelEvent({ type: 'agent', at: 1, agentId: 2, format: 'ai-sdk-ui', label: 'chat-1' }, '', undefined, reachOfFormat('ai-sdk-ui', 'fetch'))
    expect(agent).toEqual({ type: 'agent', at: 1, agent: { id: 'wire:2', kind: 'wire', label: 'chat-1', format: 'ai-sdk-ui', reach: 'ui-stream' } })
    expect(checkPanelEvent(agent).ok).toBe(true)
  })
})
