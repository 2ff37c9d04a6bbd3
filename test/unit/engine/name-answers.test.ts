import { describe, expect, it } from 'vitest'
import { answersByName } from '../../../engine/name-answers.ts'

/** An answer per name that counts how often it was worked out. */
function counted<T>(answer: (name: string) => T) {
  const asked: string[] = []
  const answers = answersByName((name) => {
    asked.push(name)
    return answer(name)
  })
  return { answers, asked }
}

describe('answersByName', () => {
  it('works each answer out once, for names asked in turn, fewer or more of them than are checked first', () => {
    for (const names of [
      ['grep', 'read_file', 'list_dir'],
      ['grep', 'read_file', 'list_dir', 'write_file', 'run_tests', 'search'],
    ]) {
      const { answers, asked } = counted((name) => `${name}!`)
      const given = [0, 1, 2].flatMap(() => names.map(answers))
      expect(given).toEqual([0, 1, 2].flatMap(() => names.map((n) => `${n}!`)))
      expect(asked).toEqual(names)
    }
  })

  it('keeps a false answer, and tells a name by its text, not by which string holds it', () => {
    const { answers, asked } = counted((name) => name.startsWith('read'))
    expect([answers('read_file'), answers('grep'), answers(['read', '_file'].join(''))]).toEqual([true, false, true])
    // Four other names since: `grep` is answered from the map.
    for (const name of ['a', 'b', 'c', 'd']) answers(name)
    expect(answers('grep')).toBe(false)
    expect(asked).toEqual(['read_file', 'grep', 'a', 'b', 'c', 'd'])
  })

  it('answers an empty name too (a snapshot asks for an agent with no run yet)', () => {
    const { answers, asked } = counted((name) => name.length)
    expect([answers(''), answers('ab'), answers('')]).toEqual([0, 2, 0])
    expect(asked).toEqual(['', 'ab'])
  })

  it('forgets what it kept past its bound, and works a forgotten answer out again', () => {
    const { answers, asked } = counted((name) => name.length)
    for (let i = 0; i < 1025; i++) answers(`tool_${i}`)
    expect(asked).toHaveLength(1025)
    expect(answers('tool_0')).toBe(6)
    expect(asked).toHaveLength(1026)
    // The map was emptied at its bound, but the last names asked are still checked first.
    for (let i = 1022; i < 1025; i++) answers(`tool_${i}`)
    expect(asked).toHaveLength(1026)
  })
})
