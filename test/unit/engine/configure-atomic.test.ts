// configure() changes nothing unless the whole update takes: here the matcher itself fails on a
// config that validated, which validation is meant to make impossible.
import { expect, it, vi } from 'vitest'
import { createRepeatToolGuard } from '../../../engine/index.ts'
import { recordEvents } from './support/events.ts'

vi.mock('../../../engine/patterns.ts', async (importOriginal) => {
  const patterns = await importOriginal<typeof import('../../../engine/patterns.ts')>()
  return {
    ...patterns,
    createToolFilter: (config: Parameters<typeof patterns.createToolFilter>[0]) => {
      if (config.exclude.includes('uncompilable')) throw new SyntaxError('Regular expression too large')
      return patterns.createToolFilter(config)
    },
  }
})

it('keeps config and filter when the filter cannot be built', () => {
  const guard = createRepeatToolGuard({ thresholds: [2], exclude: ['todo_*'] })
  const before = guard.config
  const events = recordEvents(guard)
  expect(() => guard.configure({ exclude: ['uncompilable'] })).toThrow(SyntaxError)
  expect(guard.config).toBe(before)
  expect(events).toEqual([])
  const agent = {}
  for (const name of ['grep', 'todo_write', 'grep']) guard.observe({ agent, name, arguments: 'x' })
  expect(guard.snapshot()).toMatchObject([{ tool: 'grep', count: 2 }])
})
