import { describe, expect, test } from 'vitest'
import { detectFormat, MARKER_HINTS, mayHoldToolCall, TOOL_CALL_MARKER } from '../../../engine/wire/detect.ts'
import { anthropic } from '../../../engine/wire/formats/anthropic.ts'
import { gemini } from '../../../engine/wire/formats/gemini.ts'
import { openaiChat } from '../../../engine/wire/formats/openai-chat.ts'
import { openaiResponses } from '../../../engine/wire/formats/openai-responses.ts'
import type { Conversation, JsonObject } from '../../../engine/wire/types.ts'
import { BUILDERS, repeat } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'

/** The items of a walk, shortened to what a test compares. */
function shape(conversation: Conversation) {
  return conversation.items.map((item) =>
    item.kind === 'prompt' ? 'prompt' : { calls: item.calls.map((c) => `${c.name}${c.isError ? '!' : ''}`), at: [...item.at.path, item.at.index], guarded: item.guarded },
  )
}

const call = (id: string, name = 'read_file', args = '{"path":"a"}') => ({ id, type: 'function', function: { name, arguments: args } })

describe('the cheap test before parsing', () => {
  const MARKERS = ['tool_calls', 'tool_use', 'function_call', 'custom_tool_call', 'functionCall', 'toolCallId']

  test('every marker holds a hint: a body with a marker always passes', () => {
    for (const marker of MARKERS) {
      expect(MARKER_HINTS.some((hint) => `${marker}"`.includes(hint))).toBe(true)
      expect(mayHoldToolCall(`{"x":[{"${marker}":[]}]}`)).toBe(true)
    }
    for (const build of Object.values(BUILDERS)) expect(mayHoldToolCall(JSON.stringify(build({ turns: [{ prompt: 'p' }, ...repeat({ name: 't', args: {} }, 1)] })))).toBe(true)
  })

  test('it says what the marker regex says, with or without a hint in the body', () => {
    const bodies = [
      '{"event":"click","at":1}',
      '{"last_call_at":1,"is_used":true}',
      '{"onCall":"x","was_use":"y","tool_calls":1}',
      '{"text":"the tool_calls field"}',
      '{"functionCall":1}',
      '{"a_use":"tool_use"}',
    ]
    for (const body of bodies) expect(mayHoldToolCall(body)).toBe(TOOL_CALL_MARKER.test(body))
  })
})

describe('detecting the format by body shape', () => {
  test.each(Object.entries(BUILDERS))('%s', (format, build) => {
    const body = build({ system: 's', turns: [{ prompt: 'p' }, ...repeat({ name: 't', args: {} }, 1)] })
    expect(detectFormat(body)?.format).toBe(format)
  })

  test('bodies without a tool call in their history are none of them', () => {
    for (const body of [{ messages: [{ role: 'user', content: 'hi' }] }, { input: 'hi' }, { contents: [{ parts: [{ text: 'hi' }] }] }, { messages: 'x' }]) expect(detectFormat(body)).toBeUndefined()
  })
})

describe('OpenAI Chat Completions', () => {
  test('a step is an assistant message with tool calls and the tool messages answering it', () => {
    const body = {
      messages: [
        { role: 'developer', content: 'rules' },
        null,
        'junk',
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image_url', image_url: { url: 'x' } },
          ],
        },
        { role: 'assistant', content: 'thinking', tool_calls: [call('c1'), call('c2', 'grep'), null, { id: 'c3', type: 'function', function: { name: '' } }] },
        { role: 'tool', tool_call_id: 'c2', content: 'b' },
        { role: 'tool', tool_call_id: 'c1', content: 'a' },
        { role: 'assistant', content: 'done' },
        { role: 'user', content: 'again' },
        { role: 'assistant', tool_calls: [{ id: 'c4', type: 'custom', custom: { name: 'apply_patch', input: '*** patch' } }] },
        { role: 'tool', tool_call_id: 'c4', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: GENTLE }] },
      ],
    }
    const conversation = openaiChat.walk(body)
    expect(shape(conversation)).toEqual(['prompt', { calls: ['read_file', 'grep'], at: ['messages', 7], guarded: false }, 'prompt', { calls: ['apply_patch'], at: ['messages', 11], guarded: true }])
    expect(conversation.system).toBe('rules')
    expect(conversation.carriesReminders).toBe(true)
    const step = conversation.items[3] as Extract<Conversation['items'][number], { kind: 'step' }>
    expect(step.calls[0]!.arguments).toBe('*** patch')
  })

  test('a call still waiting for its result ends the walk; what follows is not read', () => {
    const body = {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', tool_calls: [call('c1'), call('c2')] },
        { role: 'tool', tool_call_id: 'c1', content: 'a' },
        { role: 'user', content: 'later' },
      ],
    }
    expect(shape(openaiChat.walk(body))).toEqual(['prompt'])
  })

  test('an assistant message whose calls are unreadable is no step', () => {
    expect(openaiChat.walk({ messages: [{ role: 'assistant', tool_calls: [{ id: 'x' }] }] }).items).toEqual([])
    expect(openaiChat.walk({}).items).toEqual([])
  })

  test('a reminder is a plain user message', () => {
    expect(openaiChat.reminderItem('r')).toEqual({ role: 'user', content: 'r' })
  })
})

describe('OpenAI Responses', () => {
  const fc = (callId: string, name = 'read_file') => ({ type: 'function_call', call_id: callId, name, arguments: '{}' })
  const out = (callId: string) => ({ type: 'function_call_output', call_id: callId, output: 'x' })

  test('a step is a run of calls (reasoning between them) and the run of outputs after it', () => {
    const body = {
      input: [
        { type: 'message', role: 'developer', content: 'rules' },
        { role: 'user', content: 'go' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        fc('a'),
        { type: 'reasoning', id: 'rs_2', summary: [] },
        { type: 'custom_tool_call', call_id: 'b', name: 'patch', input: 'diff' },
        out('a'),
        { type: 'custom_tool_call_output', call_id: 'b', output: 'ok' },
        { type: 'item_reference', id: 'msg_1' },
        fc('c'),
        out('c'),
        { role: 'user', content: [{ type: 'input_text', text: GENTLE }] },
        7,
      ],
    }
    const conversation = openaiResponses.walk(body)
    expect(shape(conversation)).toEqual(['prompt', { calls: ['read_file', 'patch'], at: ['input', 8], guarded: false }, { calls: ['read_file'], at: ['input', 11], guarded: true }])
    expect(conversation.system).toBe('rules')
  })

  test('instructions are the system prompt', () => {
    expect(openaiResponses.walk({ instructions: 'be brief', input: [] }).system).toBe('be brief')
    expect(openaiResponses.walk({ instructions: '', input: [] }).system).toBeUndefined()
  })

  test('outputs without their calls (a stored response continued) are no step; a missing output ends the walk', () => {
    expect(shape(openaiResponses.walk({ previous_response_id: 'r', input: [out('a'), out('b')] }))).toEqual([])
    expect(shape(openaiResponses.walk({ input: [{ role: 'user', content: 'go' }, fc('a'), fc('b'), out('a'), { role: 'user', content: 'x' }] }))).toEqual(['prompt'])
  })

  test('a reminder is a user message item with input_text', () => {
    expect(openaiResponses.reminderItem('r')).toEqual({ role: 'user', content: [{ type: 'input_text', text: 'r' }] })
  })
})

describe('Anthropic Messages', () => {
  const use = (id: string, name = 'read_file') => ({ type: 'tool_use', id, name, input: { path: 'a' } })
  const result = (id: string, extra: JsonObject = {}) => ({ type: 'tool_result', tool_use_id: id, content: 'x', ...extra })

  test('tool results come first in the next user message; the reminder goes right after them', () => {
    const body = {
      system: [{ type: 'text', text: 'You are Claude.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }, use('t1'), use('t2', 'grep'), { type: 'server_tool_use', id: 's', name: 'web_search', input: {} }] },
        { role: 'user', content: [result('t1'), result('t2', { is_error: true }), { type: 'text', text: 'also, hurry' }] },
        'junk',
        { role: 'assistant', content: 'plain answer' },
        { role: 'user', content: [{ type: 'text', text: 'next' }] },
        { role: 'assistant', content: [use('t3')] },
        { role: 'user', content: [result('t3'), { type: 'text', text: GENTLE }] },
      ],
    }
    const conversation = anthropic.walk(body)
    expect(shape(conversation)).toEqual([
      'prompt',
      { calls: ['read_file', 'grep!'], at: ['messages', 2, 'content', 2], guarded: false },
      'prompt',
      { calls: ['read_file'], at: ['messages', 7, 'content', 1], guarded: true },
    ])
    expect(conversation.carriesReminders).toBe(true)
  })

  test('a tool_use without its result ends the walk', () => {
    const walk = (next: unknown) => shape(anthropic.walk({ messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [use('t1'), use('t2')] }, next] }))
    expect(walk({ role: 'user', content: [result('t1')] })).toEqual(['prompt'])
    expect(walk({ role: 'assistant', content: [] })).toEqual(['prompt'])
    expect(walk(undefined)).toEqual(['prompt'])
  })

  test('a reminder is a text block', () => {
    expect(anthropic.reminderItem('r')).toEqual({ type: 'text', text: 'r' })
  })
})

describe('Gemini', () => {
  const fcall = (name: string, id?: string) => ({ functionCall: { ...(id ? { id } : {}), name, args: { q: name } }, thoughtSignature: 'sig' })
  const fresp = (name: string, id?: string, response: JsonObject = { output: 'x' }) => ({ functionResponse: { ...(id ? { id } : {}), name, response } })

  test('responses pair with calls by id, else by name in order; the reminder is a content of its own', () => {
    const body = {
      systemInstruction: 'You are Gemini.',
      contents: [
        { parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ text: 'let me look' }, fcall('read'), fcall('read'), fcall('grep')] },
        { role: 'user', parts: [fresp('grep'), fresp('read'), fresp('read', undefined, { error: 'denied' })] },
        42,
        { role: 'model', parts: [fcall('read', 'id1'), fcall('grep', 'id2')] },
        { role: 'function', parts: [fresp('grep', 'id2'), fresp('read', 'id1', { error: 'x', output: 'partial' }), { text: 'and stop' }] },
        { role: 'model', parts: [{ text: 'done' }] },
        { role: 'model', parts: [fcall('read')] },
        { role: 'user', parts: [fresp('read')] },
        { role: 'user', parts: [{ text: GENTLE }] },
      ],
    }
    const conversation = gemini.walk(body)
    expect(shape(conversation)).toEqual([
      'prompt',
      { calls: ['read', 'read!', 'grep'], at: ['contents', 3], guarded: false },
      { calls: ['read', 'grep'], at: ['contents', 6], guarded: false },
      'prompt',
      { calls: ['read'], at: ['contents', 9], guarded: true },
    ])
    expect(conversation.system).toBe('You are Gemini.')
  })

  test('a call without its response ends the walk', () => {
    const walk = (answer: unknown) => shape(gemini.walk({ contents: [{ role: 'user', parts: [{ text: 'go' }] }, { role: 'model', parts: [fcall('a', 'i1')] }, answer] }))
    expect(walk({ role: 'user', parts: [fresp('a', 'other')] })).toEqual(['prompt'])
    expect(walk({ role: 'model', parts: [fresp('a', 'i1')] })).toEqual(['prompt'])
    expect(walk({ role: 'user' })).toEqual(['prompt'])
  })

  test('a reminder is a user content with one text part', () => {
    expect(gemini.reminderItem('r')).toEqual({ role: 'user', parts: [{ text: 'r' }] })
  })
})
