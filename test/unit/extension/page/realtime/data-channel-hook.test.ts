// The data channel hook of OpenAI Realtime over WebRTC, in a page realm with stand-ins for the
// browser's peer connection and data channel: which channels it reads, what reaches the native
// send and in which order, and what the page can tell of it.
import { describe, expect, test } from 'vitest'
import { checkPanelEvent } from '../../../../../extension/src/protocol/validate.ts'
import { reminderItem } from '../../../../fixtures/realtime/openai-events.ts'
import { detailed, GENTLE } from '../../../../fixtures/wire/reminders.ts'
import { channelPage } from './channel-page.ts'
import { READ_ARGS, REMINDED_SIX, runSession, sentKinds, twoAfterEachOutput } from './realtime-run.ts'

describe('a channel labelled oai-events', () => {
  test('made by the page: the reminder events go right after the 3rd and 5th results, before the next response.create; the events are valid', () => {
    const p = channelPage()
    const channel = p.open('oai-events')
    expect(channel.listeners).toBe(1)
    runSession(channel, 6)
    expect(twoAfterEachOutput(p.sent)).toEqual(REMINDED_SIX)
    expect(p.sent.filter((text) => (text as string).includes('"role":"user"'))).toEqual([JSON.stringify(reminderItem(GENTLE)), JSON.stringify(reminderItem(detailed('read_file', 5, READ_ARGS)))])
    for (const event of p.events) expect(checkPanelEvent(event)).toMatchObject({ ok: true })
    expect(p.events.filter((e) => e.type === 'agent')).toMatchObject([{ agent: { id: 'wire:1', kind: 'wire', label: 'You read files.', format: 'openai-realtime', reach: 'realtime-webrtc' } }])
    expect(p.events.flatMap((e) => (e.type === 'reminder' ? [[e.seq, e.withheld, e.placement?.startsWith('conversation.item.create after call_')]] : []))).toEqual([
      [3, undefined, true],
      [5, undefined, true],
    ])
  })

  test("opened by the peer: the guard listens before the page's own datachannel listener runs, and reminds the same", () => {
    const p = channelPage()
    const channel = p.peerOpens('oai-events')
    expect([channel.seen, channel.listeners]).toEqual([1, 1])
    runSession(channel, 3)
    expect(twoAfterEachOutput(p.sent)).toEqual([
      ['response.create', 'function_call_output'],
      ['response.create', 'function_call_output'],
      ['message', 'response.create'],
    ])
  })

  test('two sessions are two agents, each counted on its own', () => {
    const p = channelPage()
    const [first, second] = [p.open('oai-events'), p.open('oai-events')]
    runSession(first, 2)
    runSession(second, 2)
    expect(sentKinds(p.sent).filter((k) => k === 'message')).toEqual([])
    expect(p.events.filter((e) => e.type === 'agent').map((e) => e.type === 'agent' && e.agent.id)).toEqual(['wire:1', 'wire:2'])
  })

  test("observe: nothing but the page's own messages, and the reminders shown as withheld; off: not even read", () => {
    const observed = channelPage()
    observed.mode = () => 'observe'
    runSession(observed.open('oai-events'), 6)
    expect(sentKinds(observed.sent).filter((k) => k === 'message')).toEqual([])
    expect(observed.events.flatMap((e) => (e.type === 'reminder' ? [e.withheld] : []))).toEqual(['observe', 'observe'])
    const off = channelPage()
    off.mode = () => 'off'
    runSession(off.open('oai-events'), 6)
    expect([off.asked, off.events, sentKinds(off.sent).filter((k) => k === 'message')]).toEqual([0, [], []])
  })
})

describe('a channel of any other label', () => {
  test('is never listened to, its messages reach the native send as they were, send stays the native, and the guard never starts', () => {
    const p = channelPage()
    const channels = [p.open('chat'), p.open('oai-events-2'), p.open({ toString: () => 'files' }), p.peerOpens('game')]
    for (const channel of channels) {
      expect(channel.listeners).toBe(0)
      runSession(channel, 3)
    }
    expect([p.asked, (p.target as unknown as { RTCDataChannel: { prototype: { send: unknown } } }).RTCDataChannel.prototype.send === p.nativeSend]).toEqual([0, true])
    expect(p.sent).toHaveLength(4 * (3 * 2))
    expect(p.sent.every((text) => typeof text === 'string' && !text.includes('"role":"user"'))).toBe(true)
  })
})

describe('what the page can tell', () => {
  test('RTCPeerConnection, its alias, createDataChannel and send print and compare as the natives; subclasses and instanceof hold', () => {
    const p = channelPage()
    type Peer = new () => { createDataChannel(label: string): unknown }
    const { RTCPeerConnection, webkitRTCPeerConnection, RTCDataChannel, Function: PageFunction } = p.target as unknown as Record<string, Peer & { prototype: Record<string, unknown> }>
    const toString = PageFunction!.prototype.toString as (this: unknown) => string
    p.open('oai-events')
    expect([RTCPeerConnection!.name, toString.call(RTCPeerConnection), toString.call(RTCPeerConnection!.prototype.createDataChannel), toString.call(RTCDataChannel!.prototype.send)]).toEqual([
      'RTCPeerConnection',
      expect.stringMatching(/^class RTCPeerConnection extends EventTarget/),
      expect.stringMatching(/^createDataChannel\(label\)/),
      expect.stringMatching(/^send\(data\)/),
    ])
    expect([webkitRTCPeerConnection === RTCPeerConnection, RTCDataChannel!.prototype.send === p.nativeSend]).toEqual([true, false])
    const peer = new RTCPeerConnection!()
    expect([peer.constructor === RTCPeerConnection, peer instanceof RTCPeerConnection!]).toEqual([true, true])
    class Mine extends (RTCPeerConnection as Peer) {}
    const mine = new Mine()
    expect([mine instanceof Mine, mine instanceof RTCPeerConnection!, mine.createDataChannel('oai-events') instanceof RTCDataChannel!]).toEqual([true, true, true])
  })

  test("the native's errors reach the page as it threw them, and a channel whose send fails gets nothing more", () => {
    const p = channelPage()
    const {
      RTCPeerConnection,
      RTCDataChannel,
      SyntaxError: PageSyntaxError,
      TypeError: PageTypeError,
    } = p.target as unknown as Record<string, new (...args: unknown[]) => { createDataChannel(...args: unknown[]): unknown }>
    expect(() => new RTCPeerConnection!('bad')).toThrow(PageSyntaxError as unknown as typeof SyntaxError)
    expect(() => new RTCPeerConnection!().createDataChannel()).toThrow(PageTypeError as unknown as typeof TypeError)
    const closed = p.open('closed')
    p.open('oai-events')
    expect(() => closed.send('{"type":"response.create"}')).toThrow('InvalidStateError')
    expect(() => (RTCDataChannel!.prototype as unknown as { send(this: unknown, data: string): void }).send.call({}, 'x')).toThrow(PageTypeError as unknown as typeof TypeError)
    expect(p.sent).toEqual([])
  })
})
