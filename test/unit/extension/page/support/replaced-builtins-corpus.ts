// What the replaced-built-ins tests of the page API share: the page's throwing stand-in, the helpers
// that replace a built-in for one run and put it back, a guard wired as the page script wires it,
// and the corpus of built-ins a page may replace, each with what the guard does then.
import { createRepeatToolGuard, RECOMMENDED_CONFIG, type GuardEvent, type PostToolDecision } from '../../../../../engine/index.ts'
import { createPageGuard, type PageGuard } from '../../../../../extension/src/page/page-api.ts'

// Captured before any test replaces anything: the tests' own plumbing must not depend on the corpus.
export const { defineProperty, getOwnPropertyDescriptor } = Object
export const NativeDate = Date
export const nativeJson = JSON

export const PAGE_ERROR = 'replaced by the page'
export const thrower = () => {
  throw new Error(PAGE_ERROR)
}

/** Puts `replacement` at `target[key]` (as the getter, for an accessor); returns what puts the original back. */
export function replace(target: object, key: PropertyKey, replacement: unknown): () => void {
  const original = getOwnPropertyDescriptor(target, key)!
  defineProperty(target, key, original.get ? { ...original, get: replacement as () => unknown } : { ...original, value: replacement })
  return () => defineProperty(target, key, original)
}

export function whileReplaced<R>(target: object, key: PropertyKey, replacement: unknown, run: () => R): R {
  const restore = replace(target, key, replacement)
  try {
    return run()
  } finally {
    restore()
  }
}

/** As `whileReplaced`, across the awaits of `run`. */
export async function whileReplacedAsync<R>(target: object, key: PropertyKey, replacement: unknown, run: () => Promise<R>): Promise<R> {
  await null // the test runner attaches its own handlers to the test's promise first
  const restore = replace(target, key, replacement)
  try {
    return await run()
  } finally {
    restore()
  }
}

export function setup() {
  const guard = createRepeatToolGuard(RECOMMENDED_CONFIG)
  const faults: string[] = []
  const events: GuardEvent[] = []
  guard.subscribe((event) => {
    events[events.length] = event
    if (event.type === 'fault') faults[faults.length] = event.message
  })
  const api = createPageGuard(guard, 1, (message) => void (faults[faults.length] = message))
  return { api, faults, events }
}

// Arguments that take the serialiser through objects, arrays, strings and numbers: the BigInt
// leaves them to it (the engine writes plain data itself: engine/plain-tree-text.ts).
export const ARGS = { path: 'src/format.ts', lines: [1, 20n] }
const OTHER_ARGS = { q: 'x', n: [1, 2n] }

/**
 * Plain data the engine writes itself: a flat record, and nested data in JSON text of 8 KB and
 * more, as a wire format sends it (engine/canonical.ts).
 */
export const PLAIN_ARGS = { path: 'src/format.ts', from: 1, to: 20, all: null }
export const PLAIN_TEXT = JSON.stringify({ q: 'say "hi"', rows: Array.from({ length: 400 }, (_, i) => ({ id: i, tags: ['a', null] })) })

/**
 * Every page API call, made while the corpus entry is in place (no `next`: `postExecute` runs to
 * its end synchronously). Written without the built-ins under test: index loops, no spread.
 */
export function callEverything(api: PageGuard) {
  const agent = { name: 'main' }
  const decisions: Promise<PostToolDecision>[] = []
  for (let i = 0; i < 5; i++) decisions[i] = api.postExecute({ agent, name: 'read_file', arguments: ARGS }, { isError: false })
  const observed = api.observe({ agent: { name: 'other' }, name: 'grep', arguments: OTHER_ARGS })
  const snapshot = api.snapshot()
  api.promptSubmit(agent)
  const afterPrompt = api.snapshot()
  return { decisions, observed, snapshot, afterPrompt }
}

export const reminderTexts = (d: PostToolDecision) => (d.additionalContexts ?? []).map((m) => (m as { content: { text: string }[] }).content[0].text)

export type Outcome = 'reminds' | 'faults'
export interface Entry {
  readonly name: string
  readonly target: object
  readonly key: PropertyKey
  /** `reminds`: the guard does not use it at call time. `faults`: the serialiser dependency does. */
  readonly outcome: Outcome
}

export const proto = (value: object) => Object.getPrototypeOf(value) as object
export const CORPUS: Entry[] = [
  ...(['includes', 'find', 'map', 'some', 'every', 'slice', 'concat', 'join', 'forEach', 'filter', Symbol.iterator] as const).map((key) => ({
    name: `Array.prototype.${String(key)}`,
    target: Array.prototype,
    key,
    outcome: 'reminds' as const,
  })),
  { name: 'Array iterator next', target: proto([][Symbol.iterator]()), key: 'next', outcome: 'reminds' },
  // The serialiser keeps its stack of open objects with these.
  ...(['push', 'pop', 'indexOf'] as const).map((key) => ({ name: `Array.prototype.${key}`, target: Array.prototype, key, outcome: 'faults' as const })),
  { name: 'Array.isArray', target: Array, key: 'isArray', outcome: 'faults' },
  { name: 'Array.from', target: Array, key: 'from', outcome: 'reminds' },
  // What `concat`, `slice` and `map` would build their result with.
  { name: 'Array[Symbol.species]', target: Array, key: Symbol.species, outcome: 'reminds' },
  ...(['get', 'set', 'has', 'delete', 'clear', 'forEach', 'keys', Symbol.iterator] as const).map((key) => ({
    name: `Map.prototype.${String(key)}`,
    target: Map.prototype,
    key,
    outcome: 'reminds' as const,
  })),
  { name: 'Map.prototype.size', target: Map.prototype, key: 'size', outcome: 'reminds' },
  ...(['get', 'set', 'has'] as const).map((key) => ({ name: `WeakMap.prototype.${key}`, target: WeakMap.prototype, key, outcome: 'reminds' as const })),
  ...(['add', 'has', 'delete'] as const).map((key) => ({ name: `WeakSet.prototype.${key}`, target: WeakSet.prototype, key, outcome: 'reminds' as const })),
  { name: 'Set.prototype.has', target: Set.prototype, key: 'has', outcome: 'reminds' },
  { name: 'WeakRef.prototype.deref', target: WeakRef.prototype, key: 'deref', outcome: 'reminds' },
  { name: 'FinalizationRegistry.prototype.register', target: FinalizationRegistry.prototype, key: 'register', outcome: 'reminds' },
  { name: 'WeakRef', target: globalThis, key: 'WeakRef', outcome: 'reminds' },
  ...(['freeze', 'create', 'hasOwn', 'isFrozen', 'assign', 'entries'] as const).map((key) => ({ name: `Object.${key}`, target: Object, key, outcome: 'reminds' as const })),
  { name: 'Object.keys', target: Object, key: 'keys', outcome: 'faults' },
  { name: 'JSON.parse', target: JSON, key: 'parse', outcome: 'reminds' },
  // Called by the serialiser only for strings it must escape, which these arguments have none of.
  { name: 'JSON.stringify', target: JSON, key: 'stringify', outcome: 'reminds' },
  { name: 'Date.now', target: Date, key: 'now', outcome: 'reminds' },
  { name: 'Date', target: globalThis, key: 'Date', outcome: 'reminds' },
  ...(['then', 'catch', 'finally'] as const).map((key) => ({ name: `Promise.prototype.${key}`, target: Promise.prototype, key, outcome: 'reminds' as const })),
  { name: 'Promise.resolve', target: Promise, key: 'resolve', outcome: 'reminds' },
  ...(['call', 'apply', 'bind'] as const).map((key) => ({ name: `Function.prototype.${key}`, target: Function.prototype, key, outcome: 'reminds' as const })),
  ...(['slice', 'charCodeAt', 'startsWith', 'replaceAll', 'replace', 'split'] as const).map((key) => ({ name: `String.prototype.${key}`, target: String.prototype, key, outcome: 'reminds' as const })),
  { name: 'String', target: globalThis, key: 'String', outcome: 'faults' },
  { name: 'Error', target: globalThis, key: 'Error', outcome: 'reminds' },
  { name: 'Number.isFinite', target: Number, key: 'isFinite', outcome: 'reminds' },
  { name: 'isFinite', target: globalThis, key: 'isFinite', outcome: 'faults' },
  { name: 'Math.min', target: Math, key: 'min', outcome: 'faults' },
  { name: 'Reflect.apply', target: Reflect, key: 'apply', outcome: 'reminds' },
  // `test` reads `exec` off the expression: the serialiser's check for characters to escape.
  { name: 'RegExp.prototype.test', target: RegExp.prototype, key: 'test', outcome: 'faults' },
  { name: 'RegExp.prototype.exec', target: RegExp.prototype, key: 'exec', outcome: 'faults' },
]
