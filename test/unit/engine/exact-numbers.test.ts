// Arguments given as JSON text (as every wire format sends them) keep the digits a double cannot
// hold (engine/json-numbers.ts), and every other number is written as before, byte for byte.
import { describe, expect, it } from 'vitest'
import { canonicalArguments, createRepeatToolGuard } from '../../../engine/index.ts'
import { stringify as serialiser } from '../../../engine/stringifiers.ts'
import { argumentsFrom, KEYS, random, STRINGS, type Random } from './support/generated-arguments.ts'
import { ofType } from './support/events.ts'
import { firedAt, textsIn } from './support/fired.ts'
import { oneCallPerStep, runScenario, tools } from './support/scenario.ts'
import { detailed, GENTLE } from './support/texts.ts'

/** The canonical form of `token` as the only item of a JSON array. */
const inArray = (token: string) => canonicalArguments(`[${token}]`).slice(1, -1)

describe('numbers in arguments given as JSON text', () => {
  it('tells calls apart whose ids differ past 2^53, as a model sends them', async () => {
    const get = (id: string) => ['get_item', `{"id":${id}}`] as const
    const { agent, events } = await runScenario(oneCallPerStep([get('1800000000000000001'), ...Array.from({ length: 5 }, () => get('1800000000000000002'))]), undefined, {
      tools: { ...tools, get_item: ({ id }: { id: number }) => `item ${id}` },
    })
    expect(ofType(events, 'call').map((e) => e.count)).toEqual([1, 1, 2, 3, 4, 5])
    expect(firedAt(agent.history)).toEqual([
      [4, 'get_item × 3'],
      [6, 'get_item × 5'],
    ])
    expect(textsIn(agent.history)).toEqual([GENTLE, detailed('get_item', 5, '{"id":1800000000000000002}')])
  })

  it('keeps the digits a double cannot hold, laid out as JavaScript lays out a number', () => {
    const kept: [string, string][] = [
      ['1800000000000000001', '1800000000000000001'],
      ['-9007199254740993', '-9007199254740993'],
      // An integer written as digits keeps them, as a BigInt does, however long.
      ['12345678901234567890123', '12345678901234567890123'],
      ['10000000000000000000000', '10000000000000000000000'],
      // 2^60, which a double holds, but writes as 1152921504606847000.
      ['1152921504606846976', '1152921504606846976'],
      ['0.30000000000000001', '0.30000000000000001'],
      ['-1234567890.12345678901', '-1234567890.12345678901'],
      // 16 digits, no more than eight in a row.
      ['89459669.25576625', '89459669.25576625'],
      ['0.0000100000000000000000001', '0.0000100000000000000000001'],
      ['1.800000000000000001e18', '1800000000000000001'],
      ['18000000000000000010E-1', '1800000000000000001'],
      ['1e400', '1e+400'],
      ['-25e399', '-2.5e+400'],
      ['1e-400', '1e-400'],
      ['1.5E-400', '1.5e-400'],
      ['0.000000123456789012345678', '1.23456789012345678e-7'],
      ['123456789012345678e-2', '1234567890123456.78'],
      ['1e9007199254740993', '1e+9007199254740993'],
    ]
    expect(kept.map(([token]) => [token, inArray(token)])).toEqual(kept)
    expect(inArray('1e9007199254740993')).not.toBe(inArray('1e9007199254740992'))
  })

  it('writes every number a double holds as before: its value, as JavaScript writes it', () => {
    const asBefore: [string, string][] = [
      ['1.0', '1'],
      ['1e2', '100'],
      ['-0', '0'],
      ['-0.0e5', '0'],
      ['-0.000000000000000000000', '0'],
      ['0e-400', '0'],
      ['1E+21', '1e+21'],
      ['1e22', '1e+22'],
      ['0.10', '0.1'],
      ['9007199254740992', '9007199254740992'],
      ['1152921504606847000', '1152921504606847000'],
      ['5e-324', '5e-324'],
    ]
    expect(asBefore.map(([token]) => [token, inArray(token)])).toEqual(asBefore)
    // Any double, as JSON writes it or with an exponent: the serialiser's text of what JSON.parse makes of it.
    const rng = random(7)
    for (let i = 0; i < 3000; i++) {
      const mantissa = rng.int(2 ** 30) / 2 ** 30 + rng.int(2 ** 23) / 2 ** 53
      const value = (rng.chance(0.5) ? -1 : 1) * mantissa * 10 ** (rng.int(600) - 300)
      for (const text of [`{"n":${JSON.stringify(value)}}`, `[${value.toExponential()}, ${value}]`]) expect(canonicalArguments(text), text).toBe(serialiser(JSON.parse(text)))
    }
  }, 30_000)

  it('reads a BigInt and the JSON text of its digits as the same arguments', () => {
    expect(canonicalArguments('{"id":1800000000000000001}')).toBe(canonicalArguments({ id: 1800000000000000001n }))
    expect(canonicalArguments('[-98765432109876543210, 2]')).toBe(canonicalArguments([-98765432109876543210n, 2]))
  })

  it('gives back its own canonical form when given it as text, so a recorded call replays as the same call', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const canonical = canonicalArguments(argumentsFrom(seed))
      expect(canonicalArguments(canonical), `seed ${seed}`).toBe(canonical)
    }
    const big = canonicalArguments({ list: [1e21, 12345678901234567890n, -0.5], '0.30000000000000001': '1e400' })
    expect(canonicalArguments(big)).toBe(big)
    for (const token of ['0.30000000000000001', '1e400', '1.5e-400', '18000000000000000010E-1', '12345678901234567890123']) {
      const once = canonicalArguments(`{"n":${token}}`)
      expect(canonicalArguments(once)).toBe(once)
    }
  }, 30_000)
})

/** A JSON value with BigInts past 2^53 here and there, nested up to `depth` (and now and then around the depth cap). */
function jsonValue(rng: Random, depth: number): unknown {
  if (depth > 0 && rng.chance(0.5)) {
    if (rng.chance(0.4)) return Array.from({ length: rng.int(4) }, () => jsonValue(rng, depth - 1))
    const fields: Record<string, unknown> = {}
    for (let i = rng.int(5); i > 0; i--) Object.defineProperty(fields, rng.pick([...KEYS, 'id', 'B', 'b ']), { value: jsonValue(rng, depth - 1), enumerable: true, configurable: true, writable: true })
    return fields
  }
  switch (rng.int(6)) {
    case 0:
      return rng.pick(STRINGS)
    case 1:
      return rng.pick([0, -1, 1.5, 1e21, 1e-7, 2 ** 53, 5e-324, 100])
    case 2:
      return rng.pick([true, false, null])
    default:
      return (BigInt(2 ** 53) + BigInt(1 + rng.int(1e9))) * (rng.chance(0.2) ? -1n : 1n)
  }
}

/** Nested 254 to 258 levels deep: the serialiser cuts what lies 256 levels down. */
function deepValue(rng: Random): unknown {
  let value: unknown = rng.chance(0.5) ? [12345678901234567890n] : { id: 12345678901234567890n }
  for (let level = 254 + rng.int(5); level > 1; level--) value = rng.chance(0.5) ? [value] : { k: value, n: 1800000000000000001n }
  return value
}

/**
 * `value` as JSON text another writer may give: members in their own order, white space,
 * escapes where none is needed, a name given twice (`JSON.parse` keeps the last), BigInts as digits.
 */
function textOf(value: unknown, rng: Random): string {
  const space = () => rng.pick(['', '', ' ', '\n  ', '\t'])
  if (typeof value === 'bigint') return `${value}`
  // Letters escaped now and then; the escapes JSON.stringify wrote stay as they are.
  if (typeof value === 'string')
    return JSON.stringify(value).replace(/\\u[0-9a-f]{4}|\\.|[a-z]/g, (c) => (c.length === 1 && rng.chance(0.2) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
  if (Array.isArray(value)) return `[${space()}${value.map((item) => textOf(item, rng)).join(`${space()},${space()}`)}${space()}]`
  if (typeof value === 'object' && value !== null) {
    const members = Object.keys(value).map((key) => `${textOf(key, rng)}${space()}:${space()}${textOf((value as Record<string, unknown>)[key], rng)}`)
    if (members.length > 0 && rng.chance(0.2)) members.unshift(`${JSON.stringify(Object.keys(value)[0])}:"overwritten"`)
    return `{${space()}${members.join(',')}${space()}}`
  }
  return JSON.stringify(value)
}

describe('a JSON text that holds a number a double cannot hold', () => {
  it('is written as the serialiser writes the same value with BigInts, every other byte alike', () => {
    let deep = 0
    for (let seed = 1; seed <= 2000; seed++) {
      const rng = random(seed)
      const value = seed % 10 === 0 ? deepValue(rng) : { first: 1800000000000000001n, rest: jsonValue(rng, 4) }
      if (seed % 10 === 0) deep++
      const text = textOf(value, rng)
      expect(canonicalArguments(text), `seed ${seed}: ${text.slice(0, 200)}`).toBe(canonicalArguments(value))
    }
    expect(deep).toBeGreaterThan(100)
  }, 30_000)

  it('is written as before where the long digits are in a string', () => {
    const text = '{"b":"id 12345678901234567890123 and 1e400","a":[1.0,"0.30000000000000001"]}'
    expect(canonicalArguments(text)).toBe('{"a":[1,"0.30000000000000001"],"b":"id 12345678901234567890123 and 1e400"}')
  })
})

describe('a repeat of arguments given as JSON text', () => {
  it('is decided as comparing canonical forms decides it, whether or not the call reads as the run’s shape', () => {
    let repeats = 0
    for (let seed = 1; seed <= 1000; seed++) {
      const rng = random(seed)
      const value = { first: 1800000000000000001n, rest: jsonValue(rng, 3) }
      const run = textOf(value, rng)
      // The same text (read as the run's shape), the same arguments written another way or as
      // an object, or a text whose id differs in its last digit, which no double tells apart.
      const next = rng.pick([run, textOf(value, rng), value, run.replace('1800000000000000001', '1800000000000000002')])
      const guard = createRepeatToolGuard()
      const agent = {}
      for (const args of [run, run, next]) guard.observe({ agent, name: 'get_item', arguments: args })
      const same = canonicalArguments(next) === canonicalArguments(run)
      expect(guard.snapshot()[0]!.count, `seed ${seed}`).toBe(same ? 3 : 1)
      if (same) repeats++
    }
    expect(repeats).toBeGreaterThan(600)
    expect(repeats).toBeLessThan(900)
  }, 30_000)
})
