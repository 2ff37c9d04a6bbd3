import { describe, expect, it } from 'vitest'
import { resolveConfig, RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { LIMITS } from '../../../../extension/src/protocol/events.ts'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { recordingPage, repeat } from './support/recorded-session.ts'

function recorded() {
  const store = createPanelStore()
  const page = recordingPage()
  const a = { name: 'a' }
  const b = { name: 'b' }
  repeat(page, a, 'grep', { q: 1 }, 3)
  page.guard.observe({ agent: a, name: 'todo_write', arguments: {} })
  repeat(page, a, 'grep', { q: 1 }, 2) // 5 in a row: todo_write is transparent
  repeat(page, b, 'read', 'f', 2)
  page.guard.promptSubmit(b)
  repeat(page, b, 'read', 'f', 2) // the prompt reset the chain: never 3
  store.ingest(page.batch())
  return store
}

describe('what-if replay', () => {
  it('reproduces exactly what fired when replayed with the recorded config', () => {
    const report = recorded().whatIf(RECOMMENDED_CONFIG)
    expect(report.calls).toBe(10)
    expect(report.totals).toEqual({ same: 2, added: 0, removed: 0, changed: 0, recorded: 2, replayed: 2 })
    expect(report.rows.map((r) => [r.tool, r.seq, r.change, r.recorded?.level])).toEqual([
      ['grep', 3, 'same', 'gentle'],
      ['grep', 6, 'same', 'detailed'],
    ])
  })

  it('shows which reminders would have fired under an edited config', () => {
    const report = recorded().whatIf(resolveConfig({ thresholds: [2, 4], exclude: [] }))
    // a: grep grep grep todo grep grep -> todo_write is tracked now: runs 1 2 3 | 1 | 1 2
    // b: read read | prompt | read read -> runs 1 2 | 1 2
    expect(report.rows.map((r) => [r.agent, r.tool, r.seq, r.change, r.recorded?.level ?? null, r.replayed?.level ?? null])).toEqual([
      ['0.0:hook:1', 'grep', 2, 'added', null, 'gentle'],
      ['0.0:hook:1', 'grep', 3, 'removed', 'gentle', null],
      ['0.0:hook:1', 'grep', 6, 'changed', 'detailed', 'gentle'],
      ['0.0:hook:2', 'read', 2, 'added', null, 'gentle'],
      ['0.0:hook:2', 'read', 4, 'added', null, 'gentle'],
    ])
    expect(report.totals).toEqual({ same: 0, added: 3, removed: 1, changed: 1, recorded: 2, replayed: 4 })
  })

  it('marks a reminder whose text changes as changed', () => {
    const report = recorded().whatIf(resolveConfig({ thresholds: [3, 5], exclude: ['todo_write'], argumentsPreviewChars: 3 }))
    const changed = report.rows.find((r) => r.change === 'changed')
    expect(changed?.replayed?.text).toContain('- arguments: {"q… (+4 more chars)')
    expect(changed?.recorded?.text).toContain('- arguments: {"q":1}')
  })

  it('tells calls whose arguments were cut apart by their true length', () => {
    const store = createPanelStore()
    const page = recordingPage()
    const agent = { name: 'a' }
    const head = 'x'.repeat(LIMITS.args + 10)
    page.guard.observe({ agent, name: 'write', arguments: `${head}1` })
    page.guard.observe({ agent, name: 'write', arguments: `${head}22` })
    page.guard.observe({ agent, name: 'write', arguments: `${head}33` })
    store.ingest(page.batch())
    const report = store.whatIf(resolveConfig({ thresholds: [2] }))
    expect(report.clippedArgs).toBe(3)
    expect(report.rows.map((r) => [r.seq, r.change])).toEqual([[3, 'added']])
  })
})
