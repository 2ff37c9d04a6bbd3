import { describe, expect, test } from 'vitest'
import type { ChatCompletion } from '../../../playground/agent/wire.ts'
import { readConversation } from '../../../playground/model/conversation.ts'
import { listModels, respond } from '../../../playground/model/respond.ts'

const sys = { role: 'system', content: 'You are a coding agent.' }
const ask = { role: 'user', content: 'go' }
const callMsg = (id: string, name = 'read_file', args = '{"path":"src/format.ts"}') => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
})
const result = (id: string, content = 'text') => ({ role: 'tool', tool_call_id: id, content })

describe('the scripted model endpoint', () => {
  test('answers a request with the scenario reply, deterministic ids and the received messages', () => {
    const messages = [sys, ask, callMsg('call_1'), result('call_1')]
    const a = respond({ model: 'scripted/replay-5', messages })
    const b = respond({ model: 'scripted/replay-5', messages })
    expect(a.status).toBe(200)
    expect({ ...a.body, created: 0 }).toEqual({ ...b.body, created: 0 })
    expect(a.body).toMatchObject({
      id: 'chatcmpl-replay-5-2',
      object: 'chat.completion',
      model: 'scripted/replay-5',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/format.ts"}' } }] },
        },
      ],
      echo: { messages },
    })
  })

  test('rejects what the real API rejects', () => {
    const error = (body: unknown) => {
      const answer = respond(body)
      return [answer.status, (answer.body as { error: { message: string } }).error.message]
    }
    expect(error(undefined)).toEqual([400, 'The request body must be a JSON object.'])
    expect(error({ messages: [ask] })).toEqual([400, "'model' is required"])
    expect(error({ model: 'scripted/replay-5', messages: [] })).toEqual([400, "'messages' must be a non-empty array"])
    expect(error({ model: 'scripted/replay-5', messages: [ask], stream: true })[0]).toBe(400)
    expect(error({ model: 'gpt-4o', messages: [ask] })).toEqual([404, expect.stringContaining('The model `gpt-4o` does not exist. Scripted models: scripted/replay-5, scripted/bookkeeping')])
    expect(error({ model: 'scripted/replay-5', messages: [sys, ask, callMsg('c1'), { role: 'user', content: 'hi' }, result('c1')] })).toEqual([
      400,
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: c1",
    ])
    expect(error({ model: 'scripted/replay-5', messages: [sys, ask, result('c9')] })[1]).toContain("messages with role 'tool' must be a response to a preceding message with 'tool_calls'")
    expect(error({ model: 'scripted/replay-5', messages: [sys, ask, callMsg('c1')] })[1]).toBe('The tool_call_ids c1 did not have response messages.')
    expect(error({ model: 'scripted/replay-5', messages: [{ role: 'robot', content: 'x' }] })[1]).toMatch(/^messages\[0\]\.role must be one of/)
    expect(error({ model: 'scripted/replay-5', messages: [{ role: 'user', content: 5 }] })[1]).toBe('messages[0].content must be a string or an array of content parts')
  })

  test('lists one model per scenario', () => {
    expect(listModels().data.map((m) => m.id)).toEqual([
      'scripted/replay-5',
      'scripted/bookkeeping',
      'scripted/subagent',
      'scripted/parallel',
      'scripted/denied',
      'scripted/polling',
      'scripted/stubborn',
      'scripted/key-order',
      'scripted/ping-pong',
      'scripted/rotation',
      'scripted/paging',
      'scripted/runaway',
      'scripted/rephrase',
      'scripted/volatile-id',
      'scripted/flaky-tool',
      'scripted/same-answer',
    ])
  })
})

describe('how the scripted model reads a conversation', () => {
  const reminder = { role: 'user', content: [{ type: 'text', text: 'You are repeating the exact same tool call.' }] }

  test('a user message after tool results that talks about repeating is a notice, not a prompt', () => {
    const c = readConversation([sys, ask, callMsg('c1'), result('c1', 'A'), reminder, callMsg('c2', 'grep', 'not json'), result('c2', 'B')] as never)
    expect(c.prompt).toBe('go')
    expect(c.steps).toEqual([
      { calls: [{ name: 'read_file', args: { path: 'src/format.ts' }, result: 'A' }], notices: ['You are repeating the exact same tool call.'] },
      { calls: [{ name: 'grep', args: 'not json', result: 'B' }], notices: [] },
    ])
  })

  test('any other user message starts a new turn', () => {
    const c = readConversation([
      sys,
      ask,
      callMsg('c1'),
      result('c1'),
      { role: 'user', content: 'now repeat it for parse.ts' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'again' },
    ] as never)
    expect(c.prompt).toBe('again')
    expect(c.steps).toEqual([])
    const afterAnswer = readConversation([sys, ask, { role: 'assistant', content: 'done' }, { role: 'user', content: 'please repeat' }] as never)
    expect(afterAnswer.prompt).toBe('please repeat')
  })

  test('a user message after an answer that says it is the same answer is a notice about the answers, before or after the next prompt', () => {
    const answer = { role: 'assistant', content: 'It formats dates.' }
    const sameAnswer = { role: 'user', content: 'You have given the same answer 2 times in a row. If the task is complete, say so once and stop; otherwise take a different step.' }
    const more = { role: 'user', content: 'Tell me more.' }
    for (const messages of [
      [sys, ask, answer, more, answer, sameAnswer, more],
      [sys, ask, answer, more, answer, more, sameAnswer],
    ]) {
      const c = readConversation(messages as never)
      expect(c.prompt).toBe('Tell me more.')
      expect(c.answers).toEqual(['It formats dates.', 'It formats dates.'])
      expect(c.answerNotices).toEqual([sameAnswer.content])
    }
    const answeredSince = readConversation([sys, ask, answer, sameAnswer, more, { role: 'assistant', content: 'Something new.' }, more] as never)
    expect(answeredSince.answerNotices).toEqual([])
    const afterToolResults = readConversation([sys, ask, callMsg('c1'), result('c1'), { role: 'user', content: 'Is it the same answer as before?' }] as never)
    expect(afterToolResults.prompt).toBe('Is it the same answer as before?')
    expect(afterToolResults.answerNotices).toEqual([])
  })

  test('same-answer: the model repeats its answer until a repeated-answer reminder reaches it, then reads the sources', () => {
    const first = { role: 'assistant', content: 'tiny-dates is a small, dependency-free date library: formatDate(date) returns YYYY-MM-DD and parseDate(text) returns a Date.' }
    const more = { role: 'user', content: 'Tell me more.' }
    const reply = (messages: unknown[]) => (respond({ model: 'scripted/same-answer', messages }).body as ChatCompletion).choices[0]!.message
    expect(reply([sys, ask, first, more]).content).toBe(first.content)
    const reminded = reply([
      sys,
      ask,
      first,
      more,
      first,
      { role: 'user', content: 'You have given the same answer 2 times in a row. If the task is complete, say so once and stop; otherwise take a different step.' },
      more,
    ])
    expect(reminded.tool_calls?.map((c) => c.function.arguments)).toEqual(['{"path":"src/format.ts"}'])
  })
})
