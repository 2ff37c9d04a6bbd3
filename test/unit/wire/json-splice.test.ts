import { describe, expect, test } from 'vitest'
import { spliceJson, type JsonInsertion } from '../../../engine/wire/json-splice.ts'

const item = JSON.stringify({ role: 'user', content: 'note' })
const splice = (text: string, insertions: JsonInsertion[]) => spliceJson(text, JSON.parse(text), insertions)

describe('spliceJson', () => {
  test('inserts after an element, before the first, into an empty array, and at the end', () => {
    const text = '{"a":[1,2,3],"b":[]}'
    expect(splice(text, [{ at: { path: ['a'], index: 1 }, values: ['"x"'] }])).toBe('{"a":[1,"x",2,3],"b":[]}')
    expect(splice(text, [{ at: { path: ['a'], index: 0 }, values: ['"x"'] }])).toBe('{"a":["x",1,2,3],"b":[]}')
    expect(splice(text, [{ at: { path: ['a'], index: 3 }, values: ['"x"', '"y"'] }])).toBe('{"a":[1,2,3,"x","y"],"b":[]}')
    expect(splice(text, [{ at: { path: ['b'], index: 0 }, values: ['"x"', '"y"'] }])).toBe('{"a":[1,2,3],"b":["x","y"]}')
    expect(splice(' [ true , null ] ', [{ at: { path: [], index: 2 }, values: ['0'] }])).toBe(' [ true , null,0 ] ')
  })

  test('keeps every other byte: spacing, number spelling, escapes, big integers', () => {
    const text = '{\n  "seed" : 123456789012345678901234567890,\n  "t": 1.50e0,\n  "s": "a \\"quoted\\" \\\\",\n  "messages" : [ {"n": -0} ,\t{"n": 2} ] ,\n  "z": [false]\n}\n'
    const out = splice(text, [{ at: { path: ['messages'], index: 1 }, values: [item] }])
    expect(out).toBe(text.replace('{"n": -0}', `{"n": -0},${item}`))
    expect(JSON.parse(out).messages).toEqual([{ n: -0 }, JSON.parse(item), { n: 2 }])
  })

  test('several insertions, in any order, across nested arrays', () => {
    const body = { messages: [{ content: [{ t: 1 }, { t: 2 }] }, { content: ['a', { deep: [[1], { x: '}]' }] }] }], z: 0 }
    const out = splice(JSON.stringify(body), [
      { at: { path: ['messages', 1, 'content'], index: 2 }, values: ['"B"'] },
      { at: { path: ['messages', 0, 'content'], index: 1 }, values: ['"A"'] },
      { at: { path: ['messages'], index: 2 }, values: ['"C"'] },
      { at: { path: ['messages', 1, 'content'], index: 1 }, values: ['"D"'] },
    ])
    expect(JSON.parse(out)).toEqual({
      messages: [{ content: [{ t: 1 }, 'A', { t: 2 }] }, { content: ['a', 'D', { deep: [[1], { x: '}]' }] }, 'B'] }, 'C'],
      z: 0,
    })
  })

  test('finds members by their decoded name, the last one when a name repeats (as JSON.parse does)', () => {
    const text = '{"messages":[1],"mess\\u0061ges":[2,3],"other":{"messages":[9]},"x":true,"y":null}'
    expect(splice(text, [{ at: { path: ['messages'], index: 1 }, values: ['0'] }])).toBe('{"messages":[1],"mess\\u0061ges":[2,0,3],"other":{"messages":[9]},"x":true,"y":null}')
    const nested = '{"m":[{"content":[1],"content":[5,6]}]}'
    expect(splice(nested, [{ at: { path: ['m', 0, 'content'], index: 2 }, values: ['7'] }])).toBe('{"m":[{"content":[1],"content":[5,6,7]}]}')
  })

  test('strings full of brackets, quotes and backslashes do not confuse it', () => {
    const tricky = { a: 'x"]}', b: '\\', c: '\\"[', d: ['[{', '\\\\'], e: '"', f: '\\\\"' }
    const body = { list: [tricky, tricky, '"', '\\'], after: [tricky] }
    const out = splice(JSON.stringify(body), [{ at: { path: ['list'], index: 1 }, values: ['7'] }])
    expect(JSON.parse(out)).toEqual({ list: [tricky, 7, tricky, '"', '\\'], after: [tricky] })
  })

  test('reads only the tail it needs: a head it never reaches may be anything', () => {
    const tail = '"messages":[{"a":1},{"b":[2]}]}'
    const root = { messages: [{ a: 1 }, { b: [2] }] }
    expect(spliceJson(`{"junk": [}}} "${tail}`, root, [{ at: { path: ['messages'], index: 2 }, values: ['0'] }])).toBe(`{"junk": [}}} "${tail.replace(']}]', ']},0]')}`)
  })

  test('a path that does not lead to an array, or an index past its end, is an error', () => {
    const text = '{"a":[1,{"b":2}],"s":"x","o":{"k":1}}'
    const fails =
      (path: (string | number)[], index = 0) =>
      () =>
        splice(text, [{ at: { path, index }, values: ['0'] }])
    expect(fails(['missing'])).toThrow('no member "missing"')
    expect(fails(['s'])).toThrow('does not lead to an array')
    expect(fails(['a', 5])).toThrow('no element 5')
    expect(fails(['a', -1])).toThrow('no element -1')
    expect(fails(['a', 0, 'b'])).toThrow('no object holding "b"')
    expect(fails(['o', 0])).toThrow('no array holding element 0')
    expect(fails(['a'], 3)).toThrow('index 3 is outside an array of 2')
    expect(fails(['a'], -1)).toThrow('outside')
    expect(() => splice('{}', [{ at: { path: ['a'], index: 0 }, values: ['0'] }])).toThrow('no member')
  })

  test('where the text disagrees with the parsed value around the member, every member is read back', () => {
    // A name given twice after the one looked for, and an array whose last element is not the parsed one.
    const twice = '{"messages":[1],"x":1,"messages":[2],"x":2}'
    expect(splice(twice, [{ at: { path: ['messages'], index: 1 }, values: ['0'] }])).toBe('{"messages":[1],"x":1,"messages":[2,0],"x":2}')
    const other = '{"x":[5],"messages":[1],"x":[5]}'
    expect(spliceJson(other, { x: [5], messages: [1] }, [{ at: { path: ['messages'], index: 1 }, values: ['0'] }])).toBe('{"x":[5],"messages":[1,0],"x":[5]}')
    expect(spliceJson('{"m":[],"k":[]}', { m: [], k: [3] }, [{ at: { path: ['m'], index: 0 }, values: ['0'] }])).toBe('{"m":[0],"k":[]}')
    expect(spliceJson('{"m":[],"k":[3]}', { m: [], k: [] }, [{ at: { path: ['m'], index: 0 }, values: ['0'] }])).toBe('{"m":[0],"k":[3]}')
    expect(spliceJson('{"m":[],"k":{}}', { m: [], k: [] }, [{ at: { path: ['m'], index: 0 }, values: ['0'] }])).toBe('{"m":[0],"k":{}}')
    const laterTwice = '{"messages":[1],"x":1,"messages":[2]}'
    expect(splice(laterTwice, [{ at: { path: ['messages'], index: 0 }, values: ['0'] }])).toBe('{"messages":[1],"x":1,"messages":[0,2]}')
    // Names before it given twice: the array is then read from its end only.
    const earlierTwice = '{"x":1,"x":2,"messages":[1,2,3,4]}'
    expect(splice(earlierTwice, [{ at: { path: ['messages'], index: 1 }, values: ['0'] }])).toBe('{"x":1,"x":2,"messages":[1,0,2,3,4]}')
    expect(splice('{"messages":[1],"\\u0078":2}', [{ at: { path: ['messages'], index: 1 }, values: ['0'] }])).toBe('{"messages":[1,0],"\\u0078":2}')
  })

  test('an array is read from the nearer end, and what was read serves the next insertions', () => {
    const list = Array.from({ length: 10 }, (_, i) => ({ i, text: `"${i}"` }))
    const text = JSON.stringify({ list })
    const out = splice(
      text,
      [2, 1, 9, 8, 10].map((index) => ({ at: { path: ['list'], index }, values: [`"at ${index}"`] })),
    )
    const expected: unknown[] = [...list]
    for (const index of [10, 9, 8, 2, 1]) expected.splice(index, 0, `at ${index}`)
    expect(JSON.parse(out)).toEqual({ list: expected })
  })

  test('a text that does not match the parsed value is an error, never a wrong splice', () => {
    const at = (path: (string | number)[], index: number) => [{ at: { path, index }, values: ['0'] }]
    expect(() => spliceJson('{"a":["x"]}', { a: ['w', 'y'] }, at(['a'], 1))).toThrow('fewer elements than parsed')
    expect(() => spliceJson('{"a":[]}', { a: [1] }, at(['a'], 1))).toThrow('fewer elements than parsed')
    expect(() => spliceJson('{"a":{}}', { a: [1] }, at(['a'], 0))).toThrow('does not hold an array')
    expect(() => spliceJson('{"a":[{}]}', { a: [{ b: [] }] }, at(['a', 0, 'b'], 0))).toThrow('no member "b"')
    expect(() => spliceJson('["a":[1]]', { a: [1] }, at(['a'], 0))).toThrow('no object holding "a"')
    expect(() => spliceJson('{"a":[1],"b" 2}', { a: [1], b: 2 }, at(['a'], 0))).toThrow('malformed member')
    expect(() => spliceJson('[x"]', ['x'], at([], 1))).toThrow('unterminated string')
    expect(() => spliceJson('1]]', [[1]], at([], 1))).toThrow('unbalanced brackets')
    expect(() => spliceJson('{"a":["x"]}', { a: ['x', 'y', 'z', 'w'] }, at(['a'], 2))).toThrow('fewer elements than parsed')
    expect(() => spliceJson('[[[1]', [[[1]], 2, 3], at([], 1))).toThrow('unbalanced brackets')
    expect(() => spliceJson('["ab]', ['ab', 'c', 'd'], at([], 1))).toThrow('unterminated string')
  })

  test('no insertion leaves the text as it is', () => {
    expect(splice('{"a":1}', [])).toBe('{"a":1}')
  })
})
