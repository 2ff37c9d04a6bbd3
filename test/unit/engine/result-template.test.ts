// With `ignoreResultKeys`, two result texts that are one template with other values in the gaps
// (engine/detectors/result-template.ts) are found the same without serialising. Checked here over
// generated pairs against the canonical comparison: parse, write in canonical form, cut the keys.
import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../../../engine/canonical.ts'
import { createResultKeys } from '../../../engine/detectors/result-key.ts'
import { templateOf } from '../../../engine/detectors/result-template.ts'
import { withoutKeys } from '../../../engine/detectors/without-keys.ts'
import { random, type Random } from './support/generated-arguments.ts'

const IGNORED = ['timestamp', 'requestId']
const IGNORED_SET = new Set(IGNORED)

/** The canonical comparison's view of a result text. */
function canonicalResult(text: string): string {
  const json = canonicalJson(text)
  return json === undefined ? text : withoutKeys(json, IGNORED_SET)
}

/** A JSON text as a tree of raw tokens, so that it can be written again with other gap values. */
type Tree = { readonly raw: string } | { readonly members: readonly (readonly [string, Tree])[] } | { readonly items: readonly Tree[] }

// Names as written: escaped ones decode to an ignored key or to an ordinary one.
const NAMES = ['"a"', '"b"', '"timestamp"', '"requestId"', '"time\\u0073tamp"', '"__proto__"', '"request\\u0049d"', '"é"']
const TOKENS = [
  '1',
  '-0',
  '1.0',
  '1e2',
  '1800000000000000001',
  '1800000000000000002',
  '0.30000000000000001',
  '1e400',
  '"x"',
  '"a\\"b"',
  '"\\u0041"',
  '"12345678"',
  '"😀"',
  'true',
  'false',
  'null',
  '""',
]
// Values that are not JSON, or not one value: a text holding one is no JSON at all.
const NOT_VALUES = ['tru', '01', '-', '1.', '"\u0001"', '"\\x"', '"open', '[1,}', '{"a"}', '[1] 2', '{}}', '']

function tree(rng: Random, depth: number): Tree {
  const kind = depth > 3 ? 0 : rng.int(4)
  if (kind === 0 || kind === 1) return { raw: rng.pick(TOKENS) }
  if (kind === 2) return { items: Array.from({ length: rng.int(4) }, () => tree(rng, depth + 1)) }
  return { members: Array.from({ length: rng.int(5) }, () => [rng.pick(NAMES), tree(rng, depth + 1)] as const) }
}

const isIgnored = (name: string) => IGNORED_SET.has(JSON.parse(name) as string)

/** `t` as text; `gap` writes each ignored member's value (the tree's own by default), `space` the white space. */
function write(t: Tree, space: () => string, gap?: (own: Tree) => string): string {
  if ('raw' in t) return t.raw
  if ('items' in t) return `[${space()}${t.items.map((item) => write(item, space, gap)).join(`${space()},${space()}`)}${space()}]`
  const members = t.members.map(([name, value]) => `${name}${space()}:${space()}${gap && isIgnored(name) ? gap(value) : write(value, space, gap)}`)
  return `{${space()}${members.join(`${space()},${space()}`)}${space()}}`
}

/** White space, the same for every text written with the same seed. */
const spacing = (seed: number, often: number) => {
  const rng = random(seed)
  return () => (rng.chance(often) ? rng.pick([' ', '\n', '\t\r ']) : '')
}

/** An object at the top that holds at least one ignored member, so a template exists. */
function poll(rng: Random): Tree {
  const t = tree(rng, 1)
  const members = 'members' in t ? t.members : []
  return { members: [...members, [rng.pick(['"timestamp"', '"requestId"']), tree(rng, 2)]] }
}

describe('results compared around their ignored keys', () => {
  it('decides every generated pair as the canonical comparison does, and takes the short way for a poll', () => {
    let short = 0
    const wrong: object[] = []
    for (let seed = 1; seed <= 2000; seed++) {
      const rng = random(seed)
      const first = poll(rng)
      const often = rng.pick([0, 0.2])
      // Ignored values are written with white space of their own: the rest is spaced alike in both texts.
      const a = write(first, spacing(seed, often), (own) => write(own, spacing(seed + 2, often)))
      let b: string
      let fits = false
      switch (rng.int(5)) {
        case 0: {
          // The poll again with new values where the keys are ignored: some of them are not JSON.
          const valid = rng.chance(0.7)
          b = write(first, spacing(seed, often), () => (valid || rng.chance(0.5) ? write(tree(rng, 3), spacing(seed + 1, 0.1)) : rng.pick(NOT_VALUES)))
          fits = valid
          break
        }
        case 1:
          // Another text altogether, or the same one with other white space.
          b = rng.chance(0.5) ? write(poll(rng), spacing(seed, often)) : write(first, spacing(seed + 1, 0.3))
          break
        case 2:
          b = a
          break
        case 3: {
          // A value outside the gaps changed (maybe to one that writes the same canonical form).
          const other = tree(rng, 2)
          b = write({ members: [...('members' in first ? first.members : []), ['"a"', other]] }, spacing(seed, often))
          break
        }
        default:
          // Cut short, or with something after it: no JSON.
          b = rng.chance(0.5) ? a.slice(0, rng.int(a.length)) : `${a}${rng.pick(NOT_VALUES)}x`
      }
      const keys = createResultKeys(IGNORED)
      const flags = { isError: false, denied: false }
      const [ka, kb] = [keys.of({ content: a }, flags), keys.of({ content: b }, flags)]
      // Every tenth pair is compared once the first text's template has its expression: after it
      // was fitted as often as a repeating poll fits it.
      if (seed % 10 === 0) for (let k = 0; k < 8; k++) keys.repeats(ka, keys.of({ content: write(first, spacing(seed, often), () => `${k}`) }, flags))
      const repeats = keys.repeats(ka, kb)
      const expected = canonicalResult(a) === canonicalResult(b)
      // The short way says the same only when the canonical comparison does; the whole comparison always agrees.
      if ((repeats && !expected) || keys.same(ka, kb) !== expected || (fits && !repeats)) wrong.push({ seed, a, b, repeats, expected, fits })
      if (repeats && a !== b) short++
    }
    expect(wrong).toEqual([])
    expect(short).toBeGreaterThan(200)
  }, 30_000)

  it('finds two texts that fit one template the same without reading either again', () => {
    const keys = createResultKeys(IGNORED)
    const flags = { isError: false, denied: false }
    const [k1, k2, k3] = [1, 2, 3].map((i) => keys.of({ content: `{"job":"a","timestamp":${i}}` }, flags))
    expect(keys.repeats(k1, k2) && keys.repeats(k1, k3)).toBe(true)
    // Both now hold the first one's template: compared with each other, neither text is read.
    expect(k2.template).toBe(k1.template)
    expect(keys.same({ ...k2, text: 'not read' }, { ...k3, text: 'not read either' })).toBe(true)
  })

  it('makes no template for text that is no JSON object or array, holds no ignored key, or nests past the cap', () => {
    const deep = `${'{"a":'.repeat(300)}{"timestamp":1}${'}'.repeat(300)}`
    const deepList = `${'['.repeat(300)}{"timestamp":1}${']'.repeat(300)}`
    for (const text of ['not json', '"timestamp"', '12', '{"a":1}', '[{"b":[]}]', deep, deepList]) expect(templateOf(text, IGNORED_SET).parts, text).toBeNull()
    expect(templateOf(' [ {"timestamp" : 1 } ] ', IGNORED_SET).parts).toEqual([' [ {"timestamp" : ', ' } ] '])
  })

  it('matches a poll that keeps repeating with one expression, and still takes any JSON value in a gap', () => {
    const keys = createResultKeys(IGNORED)
    const flags = { isError: false, denied: false }
    const key = (stamp: string) => keys.of({ content: `{"job":"a.b(c)*","timestamp":${stamp},"n":[1]}` }, flags)
    const first = key('0')
    for (let i = 1; i <= 8; i++) expect(keys.repeats(first, key(`${i}`))).toBe(true)
    expect(first.template!.pattern).toBeInstanceOf(RegExp)
    expect([key('"\\u0041"'), key('{"a":[1]}'), key('-1.5e3'), key('null')].map((k) => keys.repeats(first, k))).toEqual([true, true, true, true])
    expect([key('{"a":'), key('"\\x"'), key('01')].map((k) => keys.repeats(first, k))).toEqual([false, false, false])
  })

  it('asks its expression for the kind of value each gap held, and compares any other value part by part', () => {
    const keys = createResultKeys(IGNORED)
    const flags = { isError: false, denied: false }
    const key = (stamp: string, id: string) => keys.of({ content: `{"timestamp":${stamp},"requestId":${id},"n":1}` }, flags)
    const first = key('1700000000', '"r-0"')
    for (let i = 1; i <= 8; i++) expect(keys.repeats(first, key(`${1700000000 + i}`, `"r-${i}"`))).toBe(true)
    const { pattern } = first.template!
    // A number, then a string with no escape: what the poll wrote there.
    expect(pattern!.test('{"timestamp":-2.5e3,"requestId":"other","n":1}')).toBe(true)
    expect(pattern!.test('{"timestamp":"soon","requestId":"other","n":1}')).toBe(false)
    expect(pattern!.test('{"timestamp":1,"requestId":"a\\"b","n":1}')).toBe(false)
    expect(pattern!.test('{"timestamp":1,"requestId":null,"n":1}')).toBe(false)
    // Other values are still the same result, found part by part; what is no value is not.
    expect([key('"soon"', '"x"'), key('1', '"a\\"b"'), key('true', 'null'), key('[1]', '{"a":2}')].map((k) => keys.repeats(first, k))).toEqual([true, true, true, true])
    expect([key('1,"n":2', '"x"'), key('1', '"x","n":2')].map((k) => keys.repeats(first, k))).toEqual([false, false])
  })

  it('makes no expression when a gap held an object or an array', () => {
    const keys = createResultKeys(IGNORED)
    const flags = { isError: false, denied: false }
    const key = (stamp: string) => keys.of({ content: `{"timestamp":${stamp},"n":1}` }, flags)
    const first = key('{"at":0}')
    for (let i = 1; i <= 8; i++) expect(keys.repeats(first, key(`{"at":${i}}`))).toBe(true)
    expect(first.template!.pattern).toBeUndefined()
    expect(keys.repeats(first, key('[9]'))).toBe(true)
  })

  it('compares long texts, and values that are objects or arrays in the gaps', () => {
    const keys = createResultKeys(IGNORED)
    const flags = { isError: false, denied: false }
    const long = 'x'.repeat(20_000)
    const key = (stamp: string) => keys.of({ content: `{"log":"${long}","timestamp":${stamp}}` }, flags)
    const first = key('1')
    expect(keys.repeats(first, key('[1,{"a":2}]'))).toBe(true)
    expect(keys.repeats(first, key('{"b":[1,'))).toBe(false)
    for (let i = 0; i < 8; i++) keys.repeats(first, key(`${i}`))
    expect(first.template!.pattern).toBeUndefined()
  })

  it('makes a template again for the keys of a new config', () => {
    const flags = { isError: false, denied: false }
    const before = createResultKeys(['timestamp'])
    const [k1, k2] = ['{"timestamp":1,"requestId":"a"}', '{"timestamp":2,"requestId":"b"}'].map((content) => before.of({ content }, flags))
    expect(before.repeats(k1, k2)).toBe(false)
    const after = createResultKeys(IGNORED)
    expect(after.repeats(k1, k2)).toBe(true)
  })
})
