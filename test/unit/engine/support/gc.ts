// A full garbage collection on demand, without a special flag on the test runner.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve))

// A registry that is itself collected never reports: these stay reachable until they have.
const watching = new Set<FinalizationRegistry<undefined>>()

/** Whether `target` has been collected and finalised yet. The caller must drop its own references. */
export function watchCollection(target: object): () => boolean {
  let finalised = false
  const registry = new FinalizationRegistry<undefined>(() => {
    finalised = true
    watching.delete(registry)
  })
  registry.register(target, undefined)
  watching.add(registry)
  return () => finalised
}

/**
 * Collects what nothing references any more, round after round, until `finalised()` holds. A
 * WeakRef read in a task keeps its target alive until the task ends, so every round collects in
 * a fresh task.
 */
export async function collect(finalised: () => boolean): Promise<void> {
  for (let round = 0; round < 50 && !finalised(); round++) {
    await nextTask()
    gc()
    await nextTask()
  }
  if (!finalised()) throw new Error('the object was not collected')
  // Other registries watching the same object finalise in tasks of their own.
  for (let round = 0; round < 3; round++) await nextTask()
}

/** One collection in a fresh task, returning before any finalisation callback can run. */
export async function collectNow(): Promise<void> {
  await nextTask()
  gc()
}
