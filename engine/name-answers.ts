// A config's answer per tool name (is the tool tracked, which policy applies), worked out once per
// name: the per-call path asks before and after every call. An agent calls few tools, and often
// in turn (`grep`, `read_file`, `list_dir`, …): the last few names asked are compared first, and
// only another name looks in the map.
import { maps } from './intrinsics.ts'

/** Names checked before the map: calls that take turns among this many tools never reach it. */
const RECENT = 4
/** Bounded: a page that invents tool names must not grow the cache forever. */
const MAX_NAMES = 1024

/** `answer` per name, remembered; `answer` never gives undefined. */
export function answersByName<T>(answer: (name: string) => T): (name: string) => T {
  const cache = new Map<string, T>()
  const cached = maps<string, T>()
  const names: (string | undefined)[] = [undefined, undefined, undefined, undefined]
  const answers: (T | undefined)[] = [undefined, undefined, undefined, undefined]
  let next = 0
  return (name) => {
    for (let i = 0; i < RECENT; i++) if (names[i] === name) return answers[i] as T
    let found = cached.get(cache, name)
    if (found === undefined) {
      found = answer(name)
      if (cached.size(cache) >= MAX_NAMES) cached.clear(cache)
      cached.set(cache, name, found)
    }
    names[next] = name
    answers[next] = found
    next = next === RECENT - 1 ? 0 : next + 1
    return found
  }
}
