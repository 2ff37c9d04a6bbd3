import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, type ReminderMessage } from '../../../engine/index.ts'
import { detailed, GENTLE } from './support/texts.ts'

/** The detailed reminder for a call repeated twice, with the given preview cap. */
function detailedFor(args: unknown, argumentsPreviewChars: number): ReminderMessage {
  const guard = createRepeatToolGuard({ thresholds: [2, 3], argumentsPreviewChars })
  const agent = {}
  guard.observe({ agent, name: 'write_file', arguments: args })
  guard.observe({ agent, name: 'write_file', arguments: args })
  return guard.observe({ agent, name: 'write_file', arguments: args })!
}

const quotedArguments = (message: ReminderMessage) => /^- arguments: (.*)$/m.exec(message.content[0].text)![1]!

describe('reminders', () => {
  it('carry the two texts byte for byte, as an attributed user message', () => {
    const guard = createRepeatToolGuard({ thresholds: [2, 3] })
    const agent = {}
    const call = { agent, name: 'grep', arguments: { path: 'src', pattern: 'TODO' } }
    expect(guard.observe(call)).toBeUndefined()
    expect(guard.observe(call)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: GENTLE }],
      source: { kind: 'plugin', plugin: 'repeat-tool-guard', form: 'notice', summary: 'grep × 2' },
    })
    const second = guard.observe(call)!
    expect(second.content[0].text).toBe(detailed('grep', 3, '{"path":"src","pattern":"TODO"}'))
    expect(second.source.summary).toBe('grep × 3')
    // Shared with every listener, so nobody can change what the model will read.
    expect(Object.isFrozen(second) && Object.isFrozen(second.content) && Object.isFrozen(second.content[0]) && Object.isFrozen(second.source)).toBe(true)
  })

  it('quote the arguments whole when they fit the cap', () => {
    const args = { content: 'x'.repeat(20) }
    const canonical = '{"content":"xxxxxxxxxxxxxxxxxxxx"}'
    expect(quotedArguments(detailedFor(args, canonical.length))).toBe(canonical)
    expect(quotedArguments(detailedFor(args, 500))).toBe(canonical)
  })

  it('cut the arguments from the head and end exactly with the omitted count', () => {
    const canonical = `{"content":"${'abcdefghij'.repeat(100)}"}`
    const text = quotedArguments(detailedFor({ content: 'abcdefghij'.repeat(100) }, 50))
    expect(text).toBe(`${canonical.slice(0, 50)}… (+${canonical.length - 50} more chars)`)
    expect(quotedArguments(detailedFor({ content: 'abcdefghij'.repeat(100) }, canonical.length - 1))).toMatch(/"… \(\+1 more chars\)$/)
    expect(quotedArguments(detailedFor({ content: 'abcdefghij'.repeat(100) }, 1))).toBe(`{… (+${canonical.length - 1} more chars)`)
  })

  it('never split a surrogate pair at the cut', () => {
    const content = '😀'.repeat(100)
    const canonical = `{"content":"${content}"}`
    // `{"content":"` is 12 code units; 13 would end inside the first emoji.
    const inside = quotedArguments(detailedFor({ content }, 13))
    expect(inside).toBe(`{"content":"… (+${canonical.length - 12} more chars)`)
    const after = quotedArguments(detailedFor({ content }, 14))
    expect(after).toBe(`{"content":"😀… (+${canonical.length - 14} more chars)`)
    for (const cap of [13, 14, 15, 16, 101]) {
      const cut = quotedArguments(detailedFor({ content }, cap))
      // No lone surrogate (in `u` mode a well-formed pair is one code point, not a surrogate).
      expect(cut).not.toMatch(/\p{Surrogate}/u)
      expect(JSON.parse(JSON.stringify(cut))).toBe(cut)
      const [, head, omitted] = /^(.*)… \(\+(\d+) more chars\)$/su.exec(cut)!
      expect(head!.length + Number(omitted)).toBe(canonical.length)
    }
  })

  it('quote raw-string arguments as they came', () => {
    expect(quotedArguments(detailedFor('ls -la', 500))).toBe('ls -la')
  })
})
