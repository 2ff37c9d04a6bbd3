// What counts as an answer in each format (docs/zero-code.md, "Repeated answers"): a model turn of
// text with no tool call, its text parts joined, each with the place right after it.
import { describe, expect, test } from 'vitest'
import { answersOf } from '../../../engine/wire/answers/answers.ts'

const texts = (answers: ReturnType<typeof answersOf>) => answers.map(({ text, at, afterCall }) => [text, at.index, afterCall])

describe('answers as each format holds them', () => {
  test('Chat Completions: assistant text, as a string or parts; a message with tool calls is a call turn', () => {
    const messages = [
      null,
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'text', text: 'Do' }, { type: 'image_url' }, { type: 'text', text: 'ne.' }] },
      { role: 'assistant', content: 'checking', tool_calls: [{ id: 'c1' }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: 'Done.' },
    ]
    expect(texts(answersOf('openai-chat', { messages }))).toEqual([
      ['Done.', 3, false],
      ['Done.', 7, true],
    ])
  })

  test('Responses: an assistant message item is an answer unless calls of its turn follow it, past its reasoning', () => {
    const message = (text: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] })
    const input = [
      { role: 'user', content: 'go' },
      message('let me look'),
      { type: 'reasoning', summary: [] },
      { type: 'function_call', call_id: 'c1', name: 'read', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'ok' },
      { role: 'assistant', content: 'Done.' },
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] },
      { type: 'item_reference', id: 'x', role: 'assistant' },
      message('Done.'),
    ]
    expect(texts(answersOf('openai-responses', { input }))).toEqual([
      ['Done.', 6, true],
      ['Done.', 9, false],
    ])
  })

  test('Anthropic: text blocks of an assistant message without tool_use', () => {
    const messages = [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'reading' },
          { type: 'tool_use', id: 't1', name: 'read', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hm' },
          { type: 'text', text: 'Done.' },
        ],
      },
    ]
    expect(texts(answersOf('anthropic', { messages }))).toEqual([['Done.', 3, true]])
  })

  test('Gemini: model text parts without functionCall, thoughts left out', () => {
    const contents = [
      { role: 'model', parts: [{ functionCall: { name: 'read', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'read', response: { output: 'ok' } } }] },
      { role: 'model', parts: [{ text: 'thinking it over', thought: true }, { text: 'Done.' }] },
      { role: 'model', parts: [{ text: 'only a thought', thought: true }] },
    ]
    expect(texts(answersOf('gemini', { contents }))).toEqual([['Done.', 3, true]])
  })

  test('the agent-stream formats have no answers read', () => {
    expect(answersOf('ai-sdk-ui', { messages: [{ role: 'assistant', parts: [{ type: 'text', text: 'Done.' }] }] })).toEqual([])
  })
})
