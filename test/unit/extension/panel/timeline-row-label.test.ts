// What a screen reader announces for the detectors' rows.
import { describe, expect, it } from 'vitest'
import { timelineRowLabel } from '../../../../extension/src/panel/components/timeline-row-label.ts'

describe('timeline row labels', () => {
  it('say whether a call was blocked or would have been', () => {
    const blocked = { type: 'blocked', at: 1, agentId: 'hook:1', tool: 'run_tests', count: 5, feedback: 'Blocked by repeat-tool-guard: run_tests' } as const
    expect(timelineRowLabel(blocked, 'lead')).toBe('lead: blocked run_tests after 5 calls in a row: Blocked by repeat-tool-guard: run_tests')
    expect(timelineRowLabel({ ...blocked, wouldBlock: true }, undefined)).toBe('would block run_tests after 5 calls in a row: Blocked by repeat-tool-guard: run_tests')
  })

  it('name what ended a run, a changed result included', () => {
    const reset = { type: 'reset', at: 1, agentId: 'hook:1', previousCount: 3 } as const
    expect(timelineRowLabel({ ...reset, reason: 'result-changed' }, undefined)).toBe('chain reset by a changed result, a run of 3 ended')
    expect(timelineRowLabel({ ...reset, reason: 'prompt' }, undefined)).toBe('chain reset by a user prompt, a run of 3 ended')
  })
})
