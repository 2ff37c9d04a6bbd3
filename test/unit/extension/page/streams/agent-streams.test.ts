// The responses of agents whose loop runs on the server, through the page's fetch: recognised by
// the request's body and the response's headers (never the URL), read as the page reads them, and
// every other response left the browser's, never adopted, never read.
import { describe, expect, it } from 'vitest'
import { agUiRun, pulledBody, streamsPage, UI_STREAM_HEADERS, uiChat } from './streams-page.ts'

const PIECES = ['data: {"type":"start"}\n\n', 'data: {"type":"start-step"}\n\n', 'data: [DONE]\n\n']

/** Whether the guard adopted the response: an adopted one has its body members as own properties. */
const adopted = (response: Response) => Object.getOwnPropertyNames(response).includes('body')

describe('an AI SDK UI message stream', () => {
  it('is read as the page reads it, every piece in order, and its end told', async () => {
    const p = streamsPage()
    const body = pulledBody(PIECES)
    p.answer(body.stream, UI_STREAM_HEADERS)
    const response = await p.post(uiChat)
    expect(adopted(response)).toBe(true)
    expect(p.opened.map(({ protocol, text }) => ({ protocol, text }))).toEqual([{ protocol: 'ui-message-stream', text: JSON.stringify(uiChat) }])
    // Nothing is read before the page reads.
    expect(body.state.pulls).toBe(0)
    expect(await response.text()).toBe(PIECES.join(''))
    expect(p.opened[0]!.told).toEqual([...PIECES, '<end>'])
  })

  it('is read no further than the page reads, and the page cancelling it cancels the network body', async () => {
    const p = streamsPage()
    const body = pulledBody(PIECES)
    p.answer(body.stream, { ...UI_STREAM_HEADERS, 'content-type': 'Text/Event-Stream; charset=utf-8' })
    const reader = (await p.post(uiChat)).body!.getReader()
    await reader.read()
    expect(body.state.pulls).toBe(1)
    await reader.cancel()
    expect(body.state.cancelled).toBe(true)
    expect(body.state.pulls).toBe(1)
    expect(p.opened[0]!.told).toEqual([PIECES[0], '<cut>'])
  })

  it('is not followed without its header, nor its request without the shape of a chat request', async () => {
    const p = streamsPage()
    for (const [request, headers] of [
      [uiChat, { 'content-type': 'text/event-stream' }],
      [uiChat, { ...UI_STREAM_HEADERS, 'x-vercel-ai-ui-message-stream': 'v2' }],
      [uiChat, { ...UI_STREAM_HEADERS, 'content-type': 'text/event-streams' }],
      [{ id: 'x', messages: [{ role: 'user', content: 'hi' }] }, UI_STREAM_HEADERS],
    ] as const) {
      const body = pulledBody(PIECES)
      p.answer(body.stream, headers)
      const response = await p.post(request)
      expect(adopted(response)).toBe(false)
      expect(await response.text()).toBe(PIECES.join(''))
    }
    expect(p.opened).toEqual([])
  })
})

describe('an AG-UI event stream', () => {
  it('is recognised by the RunAgentInput it answers and its event-stream type', async () => {
    const p = streamsPage()
    p.answer(pulledBody(PIECES).stream, { 'content-type': 'text/event-stream' })
    expect(await (await p.post(agUiRun)).text()).toBe(PIECES.join(''))
    expect(p.opened.map((o) => o.protocol)).toEqual(['ag-ui'])
    expect(p.opened[0]!.told).toEqual([...PIECES, '<end>'])
  })

  it('is not followed as JSON, nor for a body without a thread and a run', async () => {
    const p = streamsPage()
    p.answer('{"ok":true}', { 'content-type': 'application/json' })
    expect(adopted(await p.post(agUiRun))).toBe(false)
    const { runId: _, ...noRun } = agUiRun
    p.answer(pulledBody(PIECES).stream, { 'content-type': 'text/event-stream' })
    expect(adopted(await p.post(noRun))).toBe(false)
    expect(p.opened).toEqual([])
  })
})

describe('the origin setting and the wire guard', () => {
  it('off: nothing is followed; observe: the stream is read as in guard mode', async () => {
    const p = streamsPage()
    p.state.mode = 'off'
    p.answer(pulledBody(PIECES).stream, UI_STREAM_HEADERS)
    expect(adopted(await p.post(uiChat))).toBe(false)
    expect(p.opened).toEqual([])
    p.state.mode = 'observe'
    p.answer(pulledBody(PIECES).stream, UI_STREAM_HEADERS)
    await (await p.post(uiChat)).text()
    expect(p.opened.map((o) => o.told.length)).toEqual([PIECES.length + 1])
  })

  it("a stream the wire guard does not read is left the browser's", async () => {
    const p = streamsPage()
    p.state.reads = false
    p.answer(pulledBody(PIECES).stream, UI_STREAM_HEADERS)
    expect(adopted(await p.post(uiChat))).toBe(false)
  })
})
