// The built-ins the guard calls on its own paths, captured when this module loads. In the
// extension that is at document_start, before any page script: a page that later replaces
// `Date.now`, `JSON.parse`, `Array.prototype.includes`, `WeakMap.prototype.get`... (fake timers, a
// JSON polyfill, a test harness, a hostile script) changes nothing for the guard. A method is
// called as the captured function with its `this` passed in, never looked up on the object at call
// time; plain loops replace iteration (`for...of` and spread read the page-replaceable iterator).
// What the serialiser dependency calls inside is out of reach: see serialiser-check.ts.
// Each capture is marked pure: a bundle that uses a few of them (the extension's isolated-world
// relay, run in every frame) leaves the others out instead of making them all at start-up.

const { apply } = Reflect
const { bind, call } = Function.prototype

/**
 * `fn` as a plain function taking its `this` first: the original `call` bound to `fn`, so neither
 * `fn`'s owner nor `Function.prototype.call` is consulted again (and no arguments array is built).
 */
const uncurryThis = /* @__PURE__ */ bind.bind(call) as <T, A extends unknown[], R>(fn: (this: T, ...args: A) => R) => (self: T, ...args: A) => R

export const now: () => number = Date.now
export const { parse: jsonParse, stringify: jsonStringify } = JSON
export const { freeze, keys: objectKeys, create: objectCreate, getPrototypeOf, defineProperty } = Object
export const objectHasOwn = /* @__PURE__ */ uncurryThis(Object.prototype.hasOwnProperty) as (value: object, key: PropertyKey) => boolean
export const { isArray } = Array
export const { isFinite: isFiniteNumber, isSafeInteger } = Number
export const { isView: isArrayBufferView } = ArrayBuffer
export const NativeWeakRef = WeakRef
export const NativeWeakMap = WeakMap
export const NativeError = Error
export const toText = String
export const decodeUriComponent = decodeURIComponent
export const toNumber = Number
export const NativeBigInt = BigInt
export const NativeRegExp = RegExp
export const NativeUint32Array = Uint32Array
export const callFunction = apply

export const arrayIncludes = /* @__PURE__ */ uncurryThis(Array.prototype.includes) as <T>(array: readonly T[], item: T) => boolean
export const arrayFind = /* @__PURE__ */ uncurryThis(Array.prototype.find) as <T>(array: readonly T[], test: (item: T) => boolean) => T | undefined
export const arrayPush = /* @__PURE__ */ uncurryThis(Array.prototype.push) as <T>(array: T[], item: T) => number
export const arrayPop = /* @__PURE__ */ uncurryThis(Array.prototype.pop) as <T>(array: T[]) => T | undefined
/** Sorts strings in place by UTF-16 code units (the default order, which calls no page code for strings). */
export const arraySort = /* @__PURE__ */ uncurryThis(Array.prototype.sort) as (array: string[]) => string[]

// New arrays are filled by index: `concat`, `slice` and `map` would create them through the
// page-replaceable `Array[Symbol.species]`.

/** `[...head, ...tail]`. */
export function joined<T>(head: readonly T[], tail: readonly T[]): T[] {
  const out: T[] = []
  for (let i = 0; i < head.length; i++) out[out.length] = head[i]
  for (let i = 0; i < tail.length; i++) out[out.length] = tail[i]
  return out
}

/** `list.map(map)`. */
export function mapped<T, U>(list: readonly T[], map: (item: T) => U): U[] {
  const out: U[] = []
  for (let i = 0; i < list.length; i++) out[out.length] = map(list[i])
  return out
}

/** `list` without the first occurrence of `item`. */
export function without<T>(list: readonly T[], item: T): T[] {
  const out: T[] = []
  let removed = false
  for (let i = 0; i < list.length; i++) {
    if (!removed && list[i] === item) removed = true
    else out[out.length] = list[i]
  }
  return out
}

/**
 * `value instanceof constructor` without reading `constructor[Symbol.hasInstance]`, which anyone
 * holding the constructor can define (a page reaches the engine's error classes through what they
 * throw): the prototype chain is walked as `instanceof` walks it for a plain function.
 */
export const hasInstance = /* @__PURE__ */ uncurryThis(Function.prototype[Symbol.hasInstance]) as (constructor: abstract new (...args: never[]) => unknown, value: unknown) => boolean

export const stringSlice = /* @__PURE__ */ uncurryThis(String.prototype.slice)
export const stringCharCodeAt = /* @__PURE__ */ uncurryThis(String.prototype.charCodeAt)
export const stringToLowerCase = /* @__PURE__ */ uncurryThis(String.prototype.toLowerCase) as (text: string) => string
export const stringIndexOf = /* @__PURE__ */ uncurryThis(String.prototype.indexOf) as (text: string, search: string, from?: number) => number
export const stringStartsWith = /* @__PURE__ */ uncurryThis(String.prototype.startsWith) as (text: string, search: string, from?: number) => boolean
export const stringLastIndexOf = /* @__PURE__ */ uncurryThis(String.prototype.lastIndexOf) as (text: string, search: string, from?: number) => number
export const stringReplaceAll = /* @__PURE__ */ uncurryThis(String.prototype.replaceAll) as unknown as (text: string, search: string, replacement: string) => string
/** `RegExp.prototype.test` would read `exec` off the expression at call time; this is the original. */
export const regExpExec = /* @__PURE__ */ uncurryThis(RegExp.prototype.exec) as (expression: RegExp, text: string) => RegExpExecArray | null
export const regExpTest = (expression: RegExp, text: string): boolean => regExpExec(expression, text) !== null

// Typed arrays, read through %TypedArray%.prototype's own accessors: `typedArrayTag` is undefined
// for anything but a typed array (a DataView, say).
const typedArrayPrototype = /* @__PURE__ */ Object.getPrototypeOf(Int8Array.prototype) as object
const typedArrayAccessor = (name: PropertyKey) => Object.getOwnPropertyDescriptor(typedArrayPrototype, name)!.get!
export const typedArrayTag = /* @__PURE__ */ uncurryThis(/* @__PURE__ */ typedArrayAccessor(Symbol.toStringTag)) as (view: ArrayBufferView) => string | undefined
export const typedArrayLength = /* @__PURE__ */ uncurryThis(/* @__PURE__ */ typedArrayAccessor('length')) as (array: ArrayBufferView) => number
/** A new typed array of the same kind holding the same items, and nothing else. */
export const typedArraySlice = /* @__PURE__ */ uncurryThis((typedArrayPrototype as { slice: () => ArrayBufferView }).slice)

type MapMethods<K, V> = {
  get(map: Map<K, V>, key: K): V | undefined
  set(map: Map<K, V>, key: K, value: V): Map<K, V>
  has(map: Map<K, V>, key: K): boolean
  delete(map: Map<K, V>, key: K): boolean
  clear(map: Map<K, V>): void
  forEach(map: Map<K, V>, visit: (value: V, key: K) => void): void
  size(map: Map<K, V>): number
}
const sizeOfMap = /* @__PURE__ */ Object.getOwnPropertyDescriptor(Map.prototype, 'size')!.get!
const mapMethods: MapMethods<unknown, unknown> = {
  get: /* @__PURE__ */ uncurryThis(Map.prototype.get),
  set: /* @__PURE__ */ uncurryThis(Map.prototype.set),
  has: /* @__PURE__ */ uncurryThis(Map.prototype.has),
  delete: /* @__PURE__ */ uncurryThis(Map.prototype.delete),
  clear: /* @__PURE__ */ uncurryThis(Map.prototype.clear),
  forEach: /* @__PURE__ */ uncurryThis(Map.prototype.forEach) as MapMethods<unknown, unknown>['forEach'],
  size: /* @__PURE__ */ uncurryThis(sizeOfMap) as (map: Map<unknown, unknown>) => number,
}
/** Map methods, typed for the map at hand. */
export const maps = <K, V>() => mapMethods as unknown as MapMethods<K, V>

const mapKeys = /* @__PURE__ */ uncurryThis(Map.prototype.keys)
const mapIteratorNext = /* @__PURE__ */ uncurryThis(/* @__PURE__ */ Object.getPrototypeOf(/* @__PURE__ */ new Map().keys()).next as () => IteratorResult<unknown>)
/** The key inserted first (a Map keeps insertion order), or undefined for an empty map. */
export const firstKey = <K>(map: Map<K, unknown>): K | undefined => mapIteratorNext(mapKeys(map)).value as K | undefined

const NativeSet = Set
const setAdd = /* @__PURE__ */ uncurryThis(Set.prototype.add) as <T>(set: Set<T>, item: T) => Set<T>
export const setHas = /* @__PURE__ */ uncurryThis(Set.prototype.has) as <T>(set: ReadonlySet<T>, item: T) => boolean
/**
 * `new Set(items)`, which would read the page-replaceable array iterator (and the global `Set`).
 * Marked free of side effects so that a bundle which takes a module's other exports through a
 * public entry drops the sets it never reads (the content script's on-demand half, for one).
 */
/* @__NO_SIDE_EFFECTS__ */
export function setOf<T>(items: readonly T[]): Set<T> {
  const set = new NativeSet<T>()
  for (let i = 0; i < items.length; i++) setAdd(set, items[i])
  return set
}

export const weakMapGet = /* @__PURE__ */ uncurryThis(WeakMap.prototype.get) as <K extends object, V>(map: WeakMap<K, V>, key: K) => V | undefined
export const weakMapSet = /* @__PURE__ */ uncurryThis(WeakMap.prototype.set) as <K extends object, V>(map: WeakMap<K, V>, key: K, value: V) => WeakMap<K, V>
export const weakSetHas = /* @__PURE__ */ uncurryThis(WeakSet.prototype.has) as (set: WeakSet<object>, item: object) => boolean
export const weakSetAdd = /* @__PURE__ */ uncurryThis(WeakSet.prototype.add) as (set: WeakSet<object>, item: object) => WeakSet<object>
export const weakSetDelete = /* @__PURE__ */ uncurryThis(WeakSet.prototype.delete) as (set: WeakSet<object>, item: object) => boolean
export const weakRefDeref = /* @__PURE__ */ uncurryThis(WeakRef.prototype.deref) as <T extends object>(ref: WeakRef<T>) => T | undefined
export const registerFinalizer = /* @__PURE__ */ uncurryThis(FinalizationRegistry.prototype.register) as <T>(registry: FinalizationRegistry<T>, target: object, held: T) => void
