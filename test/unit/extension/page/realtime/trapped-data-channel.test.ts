// The data channel hook, called while the page has trapped its built-ins (builtin-traps.ts): making
// a peer connection and an `oai-events` channel (the members the hook takes at first need, and the
// hooking of `send`), the messages the channel hears, and the page's send with a reminder after it.
// The fakes stand for the browser and the analysis, and run disarmed; the hook's own code must call
// none of the traps.
import { expect, it } from 'vitest'
import { installDataChannelHooks } from '../../../../../extension/src/page/realtime/data-channel.ts'
import type { WireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'
import { createTraps } from '../support/builtin-traps.ts'

type Listener = (event: unknown) => void

it("RTCPeerConnection, createDataChannel('oai-events'), the channel's messages and send: no trap fires, and the reminder follows the page's message", () => {
  const traps = createTraps()
  const sent: unknown[] = []
  const heard: string[] = []
  const outside = traps.outside
  // The browser's interfaces, as plain functions whose bodies run disarmed.
  function EventTarget(this: { listeners: Listener[] }) {}
  EventTarget.prototype.addEventListener = function (this: { listeners?: Listener[] }, type: string, listener: Listener) {
    outside(() => type === 'message' && (this.listeners = [...(this.listeners ?? []), listener]))
  }
  function MessageEvent(this: { payload: unknown }, data: unknown) {
    this.payload = data
  }
  Object.defineProperty(MessageEvent.prototype, 'data', {
    get: function (this: { payload: unknown }) {
      return outside(() => this.payload)
    },
  })
  function RTCDataChannel(this: { name: string }, label: string) {
    this.name = label
  }
  Object.setPrototypeOf(RTCDataChannel.prototype, EventTarget.prototype)
  Object.defineProperty(RTCDataChannel.prototype, 'label', {
    get: function (this: { name: string }) {
      return outside(() => this.name)
    },
  })
  RTCDataChannel.prototype.send = (data: unknown) => {
    outside(() => sent.push(data))
  }
  function RTCPeerConnection() {}
  Object.setPrototypeOf(RTCPeerConnection.prototype, EventTarget.prototype)
  RTCPeerConnection.prototype.createDataChannel = (label: string) => outside(() => new (RTCDataChannel as unknown as new (label: string) => object)(label))
  const page = { Reflect, WeakMap, Proxy, Object, EventTarget, MessageEvent, RTCDataChannel, RTCPeerConnection } as unknown as typeof globalThis
  const analysis = {
    openRealtime: () => ({
      received: (text: string) => outside(() => void heard.push(text)),
      sent: (text: string) => outside(() => (text.includes('function_call_output') ? ['REMINDER'] : [])),
    }),
  } as unknown as WireAnalysis
  expect(installDataChannelHooks({ target: page, mode: () => 'guard', analysis: () => analysis, showAsNative: () => undefined })).toBe(true)
  const Peer = (page as unknown as { RTCPeerConnection: new () => { createDataChannel(label: string): { send(data: unknown): void; listeners: Listener[] } } }).RTCPeerConnection
  const Event = MessageEvent as unknown as new (data: unknown) => object
  const channel = traps.armedDuring(() => {
    const opened = new Peer().createDataChannel('oai-events')
    // The browser calls the guard's listener, the channel's only one.
    const listener = outside(() => opened.listeners[0]!)
    listener(outside(() => new Event('{"type":"session.created"}')))
    opened.send('{"type":"conversation.item.create","item":{"type":"function_call_output","call_id":"c1","output":"x"}}')
    opened.send('{"type":"response.create"}')
    return opened
  })
  expect(traps.hits).toEqual([])
  expect([heard, sent.length, sent[1], channel.listeners.length]).toEqual([['{"type":"session.created"}'], 3, 'REMINDER', 1])
})
