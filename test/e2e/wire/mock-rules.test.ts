// The mock model is only a fair judge if it rejects what the real APIs reject: a reminder put in
// the wrong place must fail here, or the SDK tests would prove nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anthropicBody, geminiBody, openaiChatBody, openaiResponsesBody, repeat, type Body, type Script } from '../../fixtures/wire/conversations.ts'
import { GENTLE } from '../../fixtures/wire/reminders.ts'
import { mountMockLlm, type MockLlm } from '../support/mock-llm.ts'
import { serve, type TestServer } from '../support/server.ts'

let server: TestServer
let mock: MockLlm

beforeAll(async () => {
  server = await serve([])
  mock = mountMockLlm(server)
  mock.script('judge', { steps: [[{ name: 'read_file', args: { path: 'a' } }]], answer: 'ok' })
})

afterAll(() => server?.close())

const LOOP: Script = { system: 'sys', turns: [{ prompt: 'go' }, ...repeat({ name: 'read_file', args: { path: 'a' } }, 2)] }

async function post(path: string, body: unknown): Promise<{ status: number; error?: string }> {
  const response = await fetch(`${server.origin}${path}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } })
  const status = response.status
  await response.text()
  return { status, ...(status === 200 ? {} : { error: mock.exchanges.at(-1)!.error }) }
}

/** The body with `edit` applied to a copy of its history. */
function edited(body: Body, key: string, edit: (history: unknown[]) => void): Body {
  const history = structuredClone(body[key]) as unknown[]
  edit(history)
  return { ...body, [key]: history, model: 'judge' }
}

describe('OpenAI Chat Completions', () => {
  const body = { ...openaiChatBody(LOOP), model: 'judge' }
  const path = '/v1/chat/completions'

  test('a valid request, and one with a reminder after the tool messages, are answered', async () => {
    expect(await post(path, body)).toEqual({ status: 200 })
    expect(
      await post(
        path,
        edited(body, 'messages', (m) => m.splice(4, 0, { role: 'user', content: GENTLE })),
      ),
    ).toEqual({ status: 200 })
  })

  test('a reminder between a call and its result, or a result without its call, is rejected', async () => {
    expect(
      await post(
        path,
        edited(body, 'messages', (m) => m.splice(3, 0, { role: 'user', content: GENTLE })),
      ),
    ).toMatchObject({
      status: 400,
      error: expect.stringContaining("must be followed by tool messages responding to each 'tool_call_id'"),
    })
    expect(
      await post(
        path,
        edited(body, 'messages', (m) => m.splice(2, 1)),
      ),
    ).toMatchObject({ status: 400, error: expect.stringContaining("role 'tool' must be a response") })
    expect(
      await post(
        path,
        edited(body, 'messages', (m) => m.pop()),
      ),
    ).toMatchObject({ status: 400, error: expect.stringContaining('did not have response messages: call_2') })
  })

  test('an unscripted model and a body that is not JSON are rejected', async () => {
    expect(await post(path, { ...body, model: 'nobody' })).toMatchObject({ status: 400, error: 'model "nobody" is not scripted' })
    expect(await post(path, '{"model":')).toMatchObject({ status: 400, error: expect.stringContaining('not JSON') })
  })
})

describe('OpenAI Responses', () => {
  const body = { ...openaiResponsesBody(LOOP), model: 'judge' }
  const path = '/v1/responses'

  test('a valid request is answered', async () => {
    expect(await post(path, body)).toEqual({ status: 200 })
  })

  test('an output without its call, a call without its output, a reminder with the wrong part type, are rejected', async () => {
    expect(
      await post(
        path,
        edited(body, 'input', (items) => items.splice(1, 1)),
      ),
    ).toMatchObject({ status: 400, error: expect.stringContaining('No tool call found') })
    expect(
      await post(
        path,
        edited(body, 'input', (items) => items.pop()),
      ),
    ).toMatchObject({ status: 400, error: 'No tool output found for function call call_2.' })
    expect(
      await post(
        path,
        edited(body, 'input', (items) => items.push({ role: 'user', content: [{ type: 'text', text: GENTLE }] })),
      ),
    ).toMatchObject({
      status: 400,
      error: expect.stringContaining('expected parts of type input_text'),
    })
  })
})

describe('OpenAI Responses continued by id', () => {
  const path = '/v1/responses'
  const reminder = { role: 'user', content: [{ type: 'input_text', text: GENTLE }] }
  const output = (callId: unknown) => ({ type: 'function_call_output', call_id: callId, output: 'a' })

  beforeAll(() => mock.script('looper', { steps: [1, 2, 3].map(() => [{ name: 'read_file', args: { path: 'a' } }]), answer: 'ok' }))

  /** Posts and reads the response: its id, and the call id of its first call. */
  async function respond(body: object): Promise<{ id: string; callId: unknown }> {
    const response = await fetch(`${server.origin}${path}`, { method: 'POST', body: JSON.stringify({ model: 'looper', ...body }), headers: { 'content-type': 'application/json' } })
    const json = (await response.json()) as { id: string; output: { call_id?: unknown }[] }
    return { id: json.id, callId: json.output[0]?.call_id }
  }
  const start = () => respond({ input: [{ role: 'user', content: 'go' }] })

  test('steps are counted across the chain; a reminder after the outputs is kept with the rest', async () => {
    const first = await start()
    const second = await respond({ previous_response_id: first.id, input: [output(first.callId), reminder] })
    expect(second.callId).toBe('call_2_1')
    const third = await respond({ previous_response_id: second.id, input: [output(second.callId)] })
    expect(third.callId).toBe('call_3_1')
    const fourth = await respond({ previous_response_id: third.id, input: [output(third.callId)] })
    expect(fourth.callId).toBeUndefined()
  })

  test('an unknown previous response, a reminder wedged before the outputs, a missing or foreign output, are rejected', async () => {
    const first = await start()
    const body = (input: unknown[], previous = first.id) => ({ model: 'looper', previous_response_id: previous, input })
    expect(await post(path, body([output(first.callId)], 'resp_nowhere'))).toMatchObject({ status: 400, error: "Previous response with id 'resp_nowhere' not found." })
    expect(await post(path, body([reminder, output(first.callId)]))).toMatchObject({ status: 400, error: expect.stringContaining('expected the output of function call call_1_1') })
    expect(await post(path, body([{ role: 'user', content: 'hi' }]))).toMatchObject({ status: 400, error: expect.stringContaining('expected the output') })
    expect(await post(path, body([]))).toMatchObject({ status: 400, error: 'No tool output found for function call call_1_1.' })
    expect(await post(path, body([output('call_other')]))).toMatchObject({ status: 400, error: expect.stringContaining('expected the output') })
  })

  test('a response made with store: false is not kept', async () => {
    const kept = await respond({ input: [{ role: 'user', content: 'go' }], store: false })
    expect(await post(path, { model: 'looper', previous_response_id: kept.id, input: [output(kept.callId)] })).toMatchObject({ status: 400, error: expect.stringContaining('not found') })
  })
})

describe('Anthropic Messages', () => {
  const body = { ...anthropicBody(LOOP), model: 'judge' }
  const path = '/v1/messages'

  test('a valid request, and one with a text block after the results, are answered', async () => {
    expect(await post(path, body)).toEqual({ status: 200 })
    expect(
      await post(
        path,
        edited(body, 'messages', (m) => (m[2] as { content: unknown[] }).content.push({ type: 'text', text: GENTLE })),
      ),
    ).toEqual({ status: 200 })
  })

  test('text before the tool_result blocks, a tool_use without its result, a missing max_tokens, are rejected', async () => {
    expect(
      await post(
        path,
        edited(body, 'messages', (m) => (m[2] as { content: unknown[] }).content.unshift({ type: 'text', text: GENTLE })),
      ),
    ).toMatchObject({
      status: 400,
      error: expect.stringContaining('tool_result blocks must come first'),
    })
    expect(
      await post(
        path,
        edited(body, 'messages', (m) => m.pop()),
      ),
    ).toMatchObject({ status: 400, error: expect.stringContaining('`tool_use` ids were found without `tool_result` blocks') })
    expect(
      await post(
        path,
        edited(body, 'messages', (m) => m.splice(1, 1)),
      ),
    ).toMatchObject({ status: 400, error: expect.stringContaining('unexpected `tool_use_id`') })
    expect(await post(path, { ...body, max_tokens: undefined })).toMatchObject({ status: 400, error: 'max_tokens: Field required' })
  })
})

describe('Gemini', () => {
  const body = geminiBody(LOOP)
  const path = '/v1beta/models/judge:generateContent'

  test('a valid request, and one with a separate reminder content, are answered (streamed too)', async () => {
    expect(await post(path, body)).toEqual({ status: 200 })
    expect(
      await post(
        path.replace(':generate', ':streamGenerate'),
        edited(body, 'contents', (c) => c.splice(3, 0, { role: 'user', parts: [{ text: GENTLE }] })),
      ),
    ).toEqual({ status: 200 })
  })

  test('a reminder inside the responses, a missing response, a response without its call, are rejected', async () => {
    expect(
      await post(
        path,
        edited(body, 'contents', (c) => (c[2] as { parts: unknown[] }).parts.push({ text: GENTLE })),
      ),
    ).toMatchObject({
      status: 400,
      error: expect.stringContaining('must hold only functionResponse parts'),
    })
    expect(
      await post(
        path,
        edited(body, 'contents', (c) => c.pop()),
      ),
    ).toMatchObject({ status: 400, error: expect.stringContaining('number of function response parts') })
    expect(
      await post(
        path,
        edited(body, 'contents', (c) => c.splice(1, 1)),
      ),
    ).toMatchObject({ status: 400, error: expect.stringContaining('immediately after a function call turn') })
  })
})
