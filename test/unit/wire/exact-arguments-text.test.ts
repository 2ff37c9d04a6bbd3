// engine/wire/exact-arguments.ts on its own: which arguments objects are handed on as their JSON
// text cut from the body, and which stay as `JSON.parse` made them.
import { describe, expect, it } from 'vitest'
import { exactArguments } from '../../../engine/wire/exact-arguments.ts'

/** The members the tests pick from a body. */
interface Body {
  readonly m: readonly { readonly input: { readonly at: unknown } }[]
  readonly input: { readonly x: unknown }
  readonly a: unknown
}

/** The exact arguments of `pick(body)` for the body `text`. */
function handedOn(text: string, pick: (body: Body) => unknown): unknown {
  const body = JSON.parse(text) as Body
  return exactArguments(text, body)(pick(body))
}

describe('arguments objects inside a body', () => {
  it('hands on the text of an object whose numbers a double rounded, as the body spells it', () => {
    const text = '{"m":[{"input": { "id" : 1800000000000000001, "at": [0.30000000000000001] } }]}'
    expect(handedOn(text, (b) => b.m[0].input)).toBe('{ "id" : 1800000000000000001, "at": [0.30000000000000001] }')
    expect(handedOn(text, (b) => b.m[0].input.at)).toBe('[0.30000000000000001]')
  })

  it('keeps the parsed value when the body loses no digit, or the arguments hold no number that may be rounded', () => {
    const parsed = { id: 7, tags: ['a', null], deep: { n: 2 } }
    // biome-ignore lint/correctness/noPrecisionLoss: a number a double rounds, as JSON.parse rounds it.
    const body = { m: [parsed], other: 1800000000000000001 }
    // The body holds a number a double rounds, but not these arguments.
    expect(exactArguments(JSON.stringify(body).replace('1800000000000000000', '1800000000000000001'), body)(parsed)).toBe(parsed)
    const plain = { id: 1.5 }
    expect(exactArguments('{"m":[{"id":1.5}]}', { m: [plain] })(plain)).toBe(plain)
    expect(handedOn('{"a":"1800000000000000001","b":1800000000000000001}', (b) => b.a)).toBe('1800000000000000001')
  })

  it('scans the body for long digit runs once, at the first arguments object: arguments sent as text cost no scan', () => {
    const body = { m: [{ input: '{"id":1800000000000000001}' }], n: [{ input: { id: 1.5 } }, { input: { id: 2 } }] }
    // The body's text, counting how often it is read.
    let reads = 0
    const text = {
      toString: () => {
        reads++
        return JSON.stringify(body)
      },
    } as unknown as string
    const exact = exactArguments(text, body)
    expect(exact(body.m[0]!.input)).toBe(body.m[0]!.input)
    expect(reads).toBe(0)
    expect(exact(body.n[0]!.input)).toBe(body.n[0]!.input)
    const afterScan = reads
    expect(afterScan).toBeGreaterThan(0)
    expect(exact(body.n[1]!.input)).toBe(body.n[1]!.input)
    expect(reads).toBe(afterScan)
  })

  it('reads a name given twice as JSON.parse does: the last one', () => {
    const text = '{"input":{"id":[1]},"input":{"id":1800000000000000001,"x":{"y":1e400}}}'
    expect(handedOn(text, (b) => b.input)).toBe('{"id":1800000000000000001,"x":{"y":1e400}}')
    expect(handedOn(text, (b) => b.input.x)).toBe('{"y":1e400}')
    // The first one is read against the value of the last, whatever it holds.
    const last = '{"p":5,"q":null,"r":[],"s":{},"id":1800000000000000001}'
    expect(handedOn(`{"input":{"p":{"b":1},"q":{"b":1},"r":{"b":1},"s":{"b":1}},"input":${last}}`, (b) => b.input)).toBe(last)
  })

  it('keeps the parsed value when the body is nested too deep to read alongside it', () => {
    const text = `{"input":{"id":1800000000000000001},"deep":${'['.repeat(300)}${']'.repeat(300)}}`
    const body = JSON.parse(text)
    expect(exactArguments(text, body)(body.input)).toBe(body.input)
    // Arguments nested deeper than the canonical form keeps are not searched for rounded numbers.
    let deep: unknown = 1.5
    for (let i = 0; i < 300; i++) deep = [deep]
    expect(exactArguments('[1800000000000000001]', [deep])(deep)).toBe(deep)
  })
})
