// A run's repeats reach the cycle window as the run's last call again, the very object, and once
// the window holds only that object they are counted without comparing (engine/detectors/cycles.ts).
// These tests feed one sequence of steps twice: as the guard does (a repeat is the same object)
// and as fresh copies of equal calls (every one compared), and check both decide alike call by call.
import { describe, expect, it } from 'vitest'
import { createCallClock } from '../../../engine/call-clock.ts'
import { createCycleDetector } from '../../../engine/detectors/cycles.ts'
import type { ToolPolicy } from '../../../engine/detectors/policy.ts'
import { createResultKeys } from '../../../engine/detectors/result-key.ts'
import type { TrackedCall } from '../../../engine/detectors/run-key.ts'
import { random } from './support/generated-arguments.ts'

const POLICY: ToolPolicy = { thresholds: [3, 5, 8], countBy: 'call', resultAware: false, stopAfter: null }
const TOOLS = ['grep', 'read_file', 'list_dir']

/** A sequence of steps (tool indices) made of runs: mostly short, some longer than any period. */
function stepsFrom(seed: number): number[] {
  const rng = random(seed)
  const steps: number[] = []
  while (steps.length < 120) {
    const step = rng.int(TOOLS.length)
    const length = rng.chance(0.3) ? 1 + rng.int(14) : 1 + rng.int(2)
    for (let i = 0; i < length; i++) steps.push(step)
  }
  return steps
}

const callOf = (step: number): TrackedCall => ({ tool: TOOLS[step]!, canonicalArguments: `{"n":${step}}`, policy: POLICY, result: undefined })

/**
 * What the detector fires at each call of `steps` (the periods, or 0): `sameObject` passes a
 * run's repeats as its first call again, as the guard does; otherwise every call is a new object.
 */
function firedOver(steps: readonly number[], maxPeriod: number, repeats: number, sameObject: boolean, runLengths?: readonly number[]): number[] {
  const detector = createCycleDetector({ maxPeriod, repeats }, 40, createResultKeys([]), createCallClock())
  const owner = {}
  let last: TrackedCall | undefined
  let runLength = 0
  return steps.map((step, i) => {
    const repeat = i > 0 && steps[i - 1] === step
    runLength = repeat ? runLength + 1 : 1
    const call = repeat && sameObject ? last! : callOf(step)
    last = call
    return detector.observe(owner, call, runLengths?.[i] ?? runLength)?.periods ?? 0
  })
}

describe('the cycle window over runs of one call object', () => {
  it('decides every call as comparing each one does, over generated sequences', () => {
    let fired = 0
    for (let seed = 1; seed <= 300; seed++) {
      const steps = stepsFrom(seed)
      const maxPeriod = 2 + (seed % 5)
      const repeats = 2 + (seed % 2)
      const counted = firedOver(steps, maxPeriod, repeats, true)
      expect(counted, `seed ${seed}`).toEqual(firedOver(steps, maxPeriod, repeats, false))
      fired += counted.filter((periods) => periods > 0).length
    }
    // The sequences do complete cycles, so the comparison covers firing calls too.
    expect(fired).toBeGreaterThan(50)
  })

  it('decides alike whatever run length it is told, so repeats it counted but did not add yet are added before it reads them', () => {
    // Repeats of the one object are added to every period when the window is next read: after a
    // stretch told as a long run (nothing read), a call told as a short run reads them all.
    let fired = 0
    for (let seed = 1; seed <= 200; seed++) {
      const steps = stepsFrom(seed)
      const maxPeriod = 2 + (seed % 5)
      const rng = random(seed + 1_000)
      const runLengths = steps.map(() => (rng.chance(0.5) ? 1 + rng.int(maxPeriod) : maxPeriod + rng.int(4)))
      const counted = firedOver(steps, maxPeriod, 2, true, runLengths)
      expect(counted, `seed ${seed}`).toEqual(firedOver(steps, maxPeriod, 2, false, runLengths))
      fired += counted.filter((periods) => periods > 0).length
    }
    expect(fired).toBeGreaterThan(50)
  })

  it('finds a cycle that starts right after a long run of one call object', () => {
    // A x 8, then B A B A B: the pattern of period 2 holds from the 10th call (A, as two back)
    // and completes its third period with the last call.
    const steps = [...Array<number>(8).fill(0), 1, 0, 1, 0, 1]
    const fired = firedOver(steps, 3, 3, true)
    expect(fired.slice(-1)).toEqual([3])
    expect(fired.slice(0, -1).every((periods) => periods === 0)).toBe(true)
  })
})
