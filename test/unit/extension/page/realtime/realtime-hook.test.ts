// The WebSocket hook of realtime sessions, in a page realm with a stand-in WebSocket: which sockets
// it reads, what reaches the native send and in which order, and what the page can tell of it.
import { describe, expect, test } from 'vitest'
import { checkPanelEvent } from '../../../../../extension/src/protocol/validate.ts'
import { reminderItem } from '../../../../fixtures/realtime/openai-events.ts'
import { detailed, GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { READ_ARGS as ARGS, REMINDED_SIX, runSession as run, sentKinds, twoAfterEachOutput } from './realtime-run.ts'
import { socketPage, type SocketPage } from './socket-page.ts'

const ADDRESS = 'wss://api.openai.com/v1/realtime?model=gpt-realtime'

const types = (p: SocketPage) => sentKinds(p.sent)

describe('a socket to a realtime address', () => {
  test('gets the reminder events right after the 3rd and 5th results, before the next response.create; the events are valid', () => {
    const p = socketPage()
    const socket = p.open(ADDRESS)
    expect(socket.listeners).toBe(1)
    run(socket, 6)
    const kinds = types(p)
    expect(kinds.filter((k) => k === 'message')).toHaveLength(2)
    expect(p.sent[kinds.indexOf('message')]).toBe(JSON.stringify(reminderItem(GENTLE)))
    expect(p.sent[kinds.lastIndexOf('message')]).toBe(JSON.stringify(reminderItem(detailed('read_file', 5, ARGS))))
    expect(twoAfterEachOutput(p.sent)).toEqual(REMINDED_SIX)
    for (const event of p.events) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
    expect(p.events.find((e) => e.type === 'agent')).toMatchObject({ agent: { id: 'wire:1', kind: 'wire', label: 'You read files.', format: 'openai-realtime', reach: 'realtime-ws' } })
  })

  test("observe: nothing but the page's own messages, and the reminders shown as withheld; off: not even read", () => {
    const observed = socketPage()
    observed.mode = () => 'observe'
    run(observed.open(ADDRESS), 6)
    expect(types(observed).filter((k) => k === 'message')).toEqual([])
    expect(observed.events.flatMap((e) => (e.type === 'reminder' ? [e.withheld] : []))).toEqual(['observe', 'observe'])
    const off = socketPage()
    off.mode = () => 'off'
    run(off.open(ADDRESS), 6)
    expect([off.asked, off.events, types(off).filter((k) => k === 'message')]).toEqual([0, [], []])
  })

  test('a Gemini Live address in a URL object is read too, as gemini-live', () => {
    const p = socketPage()
    const socket = p.open(new p.target.URL('wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k'))
    socket.send(JSON.stringify({ setup: { model: 'models/gemini-live' } }))
    socket.hear(JSON.stringify({ setupComplete: {} }))
    socket.hear(JSON.stringify({ toolCall: { functionCalls: [{ id: 'f1', name: 'look', args: {} }] } }))
    socket.send(JSON.stringify({ toolResponse: { functionResponses: [{ id: 'f1', name: 'look', response: { output: 1 } }] } }))
    expect(p.events.find((e) => e.type === 'agent')).toMatchObject({ agent: { format: 'gemini-live', reach: 'gemini-live', label: 'Gemini Live session (gemini-live)' } })
  })
})

describe('every other socket', () => {
  test('is never listened to, its messages reach the native send as they were, and the guard never starts', () => {
    const p = socketPage()
    for (const address of ['wss://chat.example/socket', 'wss://x.example/realtime-chat', new p.target.URL('wss://x.example/live'), { toString: () => 'wss://x/v1/realtime' }]) {
      const socket = p.open(address)
      expect(socket.listeners).toBe(0)
      run(socket, 3)
    }
    expect(p.asked).toBe(0)
    expect(p.sent.every((text) => typeof text === 'string' && !text.includes('You are repeating'))).toBe(true)
  })
})

describe('what the page can tell', () => {
  test('WebSocket and its send print and compare as the natives; subclasses and instanceof hold', () => {
    const p = socketPage()
    const { WebSocket } = p.target
    const toString = p.target.Function.prototype.toString
    expect([WebSocket.name, WebSocket.length, toString.call(WebSocket), toString.call(WebSocket.prototype.send)]).toEqual([
      'WebSocket',
      2,
      expect.stringMatching(/^class WebSocket extends EventTarget/),
      expect.stringMatching(/^send\(data\)/),
    ])
    const socket = new WebSocket(ADDRESS)
    expect([socket.constructor === WebSocket, socket instanceof WebSocket, Object.getPrototypeOf(socket) === WebSocket.prototype]).toEqual([true, true, true])
    class Mine extends WebSocket {}
    const mine = new Mine(ADDRESS)
    expect([mine instanceof Mine, mine instanceof WebSocket]).toEqual([true, true])
  })

  test("the native's errors reach the page as it threw them, and a socket whose send fails gets nothing more", () => {
    const p = socketPage()
    expect(() => p.open('not an address')).toThrow(p.target.SyntaxError as unknown as typeof SyntaxError)
    const socket = p.open('wss://x/v1/realtime?closed')
    expect(() => socket.send('{"type":"response.create"}')).toThrow('InvalidStateError')
    expect(() => p.target.WebSocket.prototype.send.call({}, 'x')).toThrow(p.target.TypeError as unknown as typeof TypeError)
    expect(p.sent).toEqual([])
  })
})
