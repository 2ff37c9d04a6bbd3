// The cycle window keeps each agent's calls with the built-ins the engine captured, never the
// page's: a page may replace `WeakMap.prototype.get` or `Array.prototype.fill` (docs/security.md,
// "A page that replaces built-ins").
import { expect, it } from 'vitest'
import { createCallClock } from '../../../engine/call-clock.ts'
import { createCycleDetector } from '../../../engine/detectors/cycles.ts'
import type { ToolPolicy } from '../../../engine/detectors/policy.ts'
import { createResultKeys } from '../../../engine/detectors/result-key.ts'
import type { TrackedCall } from '../../../engine/detectors/run-key.ts'

const POLICY: ToolPolicy = { thresholds: [3, 5, 8], countBy: 'call', resultAware: false, stopAfter: null }
const REPLACED = [
  [WeakMap.prototype, 'get'],
  [WeakMap.prototype, 'set'],
  [Array.prototype, 'fill'],
] as const
const originals = REPLACED.map(([owner, key]) => Object.getOwnPropertyDescriptor(owner, key)!)

it('finds an A-B cycle with the page’s WeakMap and Array methods replaced, calling none of them', () => {
  const detector = createCycleDetector({ maxPeriod: 3, repeats: 2 }, 40, createResultKeys([]), createCallClock())
  const called: string[] = []
  const owner = {}
  const call = (tool: string): TrackedCall => ({ tool, canonicalArguments: '{}', policy: POLICY, result: undefined })
  // Each replacement notes its call and does what the original does; all are put back before
  // anything else runs, the test runner included.
  REPLACED.forEach(([target, key], i) => {
    const original = originals[i]!.value as (...args: unknown[]) => unknown
    Object.defineProperty(target, key, {
      value(this: unknown, ...args: unknown[]) {
        called.push(key)
        return Reflect.apply(original, this, args)
      },
      configurable: true,
      writable: true,
    })
  })
  let fired: number[]
  try {
    fired = ['a', 'b', 'a', 'b', 'a', 'b'].map((tool) => detector.observe(owner, call(tool), 1)?.periods ?? 0)
  } finally {
    REPLACED.forEach(([target, key], i) => Object.defineProperty(target, key, originals[i]!))
  }
  expect(called).toEqual([])
  expect(fired.some((periods) => periods > 0)).toBe(true)
})
