import { describe, expect, it } from 'vitest'
import { canonicalArguments, createRepeatToolGuard } from '../../../engine/index.ts'

describe('canonicalArguments', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalArguments({ b: 1, a: { d: [3, 1], c: null } })).toBe('{"a":{"c":null,"d":[3,1]},"b":1}')
    expect(canonicalArguments({ a: { c: null, d: [3, 1] }, b: 1 })).toBe(canonicalArguments({ b: 1, a: { d: [3, 1], c: null } }))
    expect(canonicalArguments([2, 1])).not.toBe(canonicalArguments([1, 2]))
  })

  it('parses a string of JSON first, and keeps any other string as it is', () => {
    expect(canonicalArguments('{"b":1,"a":2}')).toBe('{"a":2,"b":1}')
    expect(canonicalArguments(' \n{"b": 1, "a": 2}\t')).toBe(canonicalArguments({ a: 2, b: 1 }))
    expect(canonicalArguments('[1, 2]')).toBe('[1,2]')
    expect(canonicalArguments('"quoted"')).toBe('"quoted"')
    expect(canonicalArguments('-1.5e3')).toBe('-1500')
    expect(canonicalArguments('true')).toBe('true')
    expect(canonicalArguments('null')).toBe('null')
    // Not JSON: the raw text is the canonical form, unquoted and untouched.
    expect(canonicalArguments('ls -la src')).toBe('ls -la src')
    expect(canonicalArguments('{path: "src"}')).toBe('{path: "src"}')
    expect(canonicalArguments('  {"a":1')).toBe('  {"a":1')
    expect(canonicalArguments('tru')).toBe('tru')
    expect(canonicalArguments('')).toBe('')
    // The raw string `src` and the JSON string `"src"` are different arguments.
    expect(canonicalArguments('src')).not.toBe(canonicalArguments('"src"'))
  })

  it('serialises undefined, BigInt and cycles instead of throwing', () => {
    expect(canonicalArguments(undefined)).toBe('undefined')
    expect(canonicalArguments({ a: undefined, b: 1 })).toBe('{"b":1}')
    expect(canonicalArguments([undefined, () => 1])).toBe('[null,null]')
    expect(canonicalArguments({ n: 12345678901234567890n })).toBe('{"n":12345678901234567890}')
    const cyclic: Record<string, unknown> = { name: 'root' }
    cyclic.self = cyclic
    cyclic.list = [cyclic]
    expect(canonicalArguments(cyclic)).toBe('{"list":["[Circular]"],"name":"root","self":"[Circular]"}')
    // Shared, not cyclic: serialised at each place, as JSON would.
    const shared = { x: 1 }
    expect(canonicalArguments({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}')
  })

  it('applies toJSON once, as JSON.stringify does', () => {
    const date = new Date(Date.UTC(2026, 0, 2))
    expect(canonicalArguments({ at: date })).toBe('{"at":"2026-01-02T00:00:00.000Z"}')
    const nested = { toJSON: () => ({ toJSON: () => 'never called', b: 2, a: 1 }) }
    expect(canonicalArguments({ v: nested })).toBe(`{"v":${JSON.stringify({ a: 1, b: 2 })}}`)
  })

  it('names the parts that throw when read and keeps the rest, so calls still differ', () => {
    const withGetter = (path: string) => ({
      path,
      get broken(): never {
        throw new Error('no access')
      },
      date: new Date(0),
      list: [
        1,
        {
          get deep(): never {
            throw new RangeError('deep')
          },
        },
      ],
      __proto__: null,
    })
    expect(canonicalArguments(withGetter('a'))).toBe('{"broken":"[Thrown: no access]","date":"1970-01-01T00:00:00.000Z","list":[1,{"deep":"[Thrown: deep]"}],"path":"a"}')
    expect(canonicalArguments(withGetter('a'))).toBe(canonicalArguments(withGetter('a')))
    expect(canonicalArguments(withGetter('a'))).not.toBe(canonicalArguments(withGetter('b')))
  })

  it('survives whatever a hostile object throws', () => {
    const throwsOnToJSON = {
      toJSON: () => {
        throw new Error('toJSON failed')
      },
    }
    const { proxy: revoked, revoke } = Proxy.revocable({}, {})
    revoke()
    const trapped = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('ownKeys trap')
        },
      },
    )
    const hostileError = {
      get message(): never {
        throw new Error('again')
      },
    }
    const throwsHostile = {
      get x(): never {
        throw hostileError
      },
    }
    const throwsString = {
      get x(): never {
        throw 'plain text'
      },
    }
    const arrayWithGetter = Object.defineProperty([1, 2], '1', {
      get: () => {
        throw new Error('index')
      },
    })
    const value = { throwsOnToJSON, revoked, trapped, throwsHostile, throwsString, arrayWithGetter, cycle: [] as unknown[] }
    value.cycle.push(value)
    expect(canonicalArguments(value)).toBe(
      '{"arrayWithGetter":[1,"[Thrown: index]"],"cycle":["[Circular]"],' +
        '"revoked":"[Thrown: Cannot perform \'get\' on a proxy that has been revoked]",' +
        '"throwsHostile":{"x":"[Thrown: [object Object]]"},"throwsOnToJSON":"[Thrown: toJSON failed]",' +
        '"throwsString":{"x":"[Thrown: plain text]"},"trapped":"[Thrown: ownKeys trap]"}',
    )
    const unreadableError = {
      get x(): never {
        throw Object.create(null)
      },
    }
    expect(canonicalArguments(unreadableError)).toBe('{"x":"[Thrown: unreadable error]"}')
    const { proxy: revokedArguments, revoke: revokeArguments } = Proxy.revocable({}, {})
    revokeArguments()
    expect(canonicalArguments(revokedArguments)).toMatch(/^"\[Thrown: .*revoked\]"$/)
  })

  it('writes a typed array next to a part that throws as it writes one anywhere else: its items in index order, then its other keys', () => {
    const items = () => Uint8Array.from({ length: 12 }, (_, i) => i + 1)
    const itemsText = Array.from({ length: 12 }, (_, i) => `"${i}":${i + 1}`).join(',')
    const broken = {
      get b(): never {
        throw new Error('b')
      },
    }
    expect(canonicalArguments({ t: items(), broken })).toBe(`{"broken":{"b":"[Thrown: b]"},"t":{${itemsText}}}`)
    expect(canonicalArguments({ t: items() })).toBe(`{"t":{${itemsText}}}`)
    // Its own other keys after the items, sorted, each read as any member is: one that throws is
    // named, one the prototype has an accessor for is kept.
    const extras = Object.defineProperties(items(), {
      z: { value: 1, enumerable: true },
      byteLength: { value: 'own', enumerable: true },
      y: {
        get: () => {
          throw new Error('y')
        },
        enumerable: true,
      },
    })
    expect(canonicalArguments({ t: extras })).toBe(`{"t":{${itemsText},"byteLength":"own","y":"[Thrown: y]","z":1}}`)
    // A view that is no typed array is an object of its own keys, as the serialiser writes it.
    expect(canonicalArguments({ view: new DataView(new ArrayBuffer(2)), broken })).toBe('{"broken":{"b":"[Thrown: b]"},"view":{}}')
  })

  it('keeps a key named __proto__ as an ordinary key on the slow path too', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as object
    Object.defineProperty(parsed, 'b', {
      enumerable: true,
      get: () => {
        throw new Error('b')
      },
    })
    expect(canonicalArguments(parsed)).toBe('{"__proto__":{"polluted":true},"a":1,"b":"[Thrown: b]"}')
  })

  it('cuts nesting deeper than 256 levels the same way every time', () => {
    const nest = (depth: number, leaf: unknown) => {
      let value = leaf
      for (let i = 0; i < depth; i++) value = { a: value }
      return value
    }
    // Deep enough to exhaust the stack of a naive recursive serialiser.
    const deep = nest(100_000, 'leaf')
    const canonical = canonicalArguments(deep)
    expect(canonical).toBe(`${'{"a":'.repeat(256)}"[Object]"${'}'.repeat(256)}`)
    expect(canonicalArguments(nest(100_000, 'other leaf'))).toBe(canonical)
    expect(canonicalArguments(nest(255, 'leaf'))).toContain('"leaf"')
    // The slow path (a throwing getter) cuts at the same depth.
    const getter = {
      get g(): never {
        throw new Error('g')
      },
    }
    const slow = canonicalArguments({ ...(nest(100_000, 'leaf') as object), z: getter })
    expect(slow).toBe(`{"a":${'{"a":'.repeat(255)}"[Object]"${'}'.repeat(255)},"z":{"g":"[Thrown: g]"}}`)
  })

  it('serialises huge strings whole, and never throws past the longest string the engine can build', { timeout: 60_000 }, () => {
    const big = 'x'.repeat(20_000_000)
    expect(canonicalArguments({ content: big })).toHaveLength(big.length + 14)
    // 34 references to a 16M-character string: the text would pass V8's longest string. A throwing
    // getter sends it down the slow path at once, where the part that cannot be built is named.
    const chunk = 'y'.repeat(2 ** 24)
    const value = {
      a: {
        get broken(): never {
          throw new Error('no access')
        },
      },
      b: Array(34).fill(chunk),
      c: 'kept',
    }
    expect(canonicalArguments(value)).toBe('{"a":{"broken":"[Thrown: no access]"},"b":"Error: Stringification failed (Invalid string length)","c":"kept"}')
  })

  it('tells two calls apart by their full canonical form through a guard', () => {
    const guard = createRepeatToolGuard({ thresholds: [2] })
    const agent = {}
    const big = (last: string) => ({ content: `${'z'.repeat(1_000_000)}${last}` })
    expect(guard.observe({ agent, name: 'write', arguments: big('1') })).toBeUndefined()
    expect(guard.observe({ agent, name: 'write', arguments: big('2') })).toBeUndefined()
    expect(guard.observe({ agent, name: 'write', arguments: big('2') })).toBeDefined()
  })
})
