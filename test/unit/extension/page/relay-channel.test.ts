// @vitest-environment happy-dom
// The page script's end of the private channel to the relay: it takes the first port offered at
// document_start and no other, talks over it alone, and what its listener throws never reaches the page.
import { Window as HappyWindow } from 'happy-dom'
import { afterEach, describe, expect, it } from 'vitest'
import { awaitRelayChannel } from '../../../../extension/src/page/relay-channel.ts'
import { CHANNEL_EVENT } from '../../../../extension/src/protocol/messages.ts'
import { FakeMessageChannel } from '../support/fake-message-channel.ts'

let win: HappyWindow
afterEach(async () => {
  await win?.happyDOM.close()
})

/** A fresh window (a frame at document_start) and a channel the test offers as the relay would. */
function frame(): { win: Window & typeof globalThis; offer: (channel: FakeMessageChannel) => void } {
  win = new HappyWindow({ url: 'https://page.test/' })
  const w = win as unknown as Window & typeof globalThis
  return { win: w, offer: (channel) => void w.dispatchEvent(new w.MessageEvent(CHANNEL_EVENT, { ports: [channel.port2 as never] })) }
}

/** Everything `port` receives, in order. */
function collect(port: { onmessage: ((event: { data: unknown }) => void) | null }): unknown[] {
  const got: unknown[] = []
  port.onmessage = ({ data }) => void got.push(data)
  return got
}

describe("the page script's end of the relay channel", () => {
  it('takes the first offer only: a later offer, and its port, reach nothing', async () => {
    const { win, offer } = frame()
    const received: unknown[] = []
    const toRelay = awaitRelayChannel(
      win,
      (data) => void received.push(data),
      () => undefined,
    )
    const relay = new FakeMessageChannel()
    const forger = new FakeMessageChannel()
    const atRelay = collect(relay.port1)
    const atForger = collect(forger.port1)
    offer(relay)
    offer(forger)
    forger.port1.postMessage('forged')
    relay.port1.postMessage('from the relay')
    toRelay('from the page')
    await expect.poll(() => received).toEqual(['from the relay'])
    await expect.poll(() => atRelay).toEqual(['from the page'])
    expect(atForger).toEqual([])
  })

  it('sends nothing before an offer, and nothing on the window, ever', async () => {
    const { win, offer } = frame()
    const onWindow: unknown[] = []
    win.addEventListener('message', (event) => void onWindow.push((event as unknown as MessageEvent).data))
    const toRelay = awaitRelayChannel(
      win,
      () => undefined,
      () => undefined,
    )
    toRelay('too early')
    const relay = new FakeMessageChannel()
    const atRelay = collect(relay.port1)
    offer(relay)
    toRelay('on time')
    await expect.poll(() => atRelay).toEqual(['on time'])
    expect(onWindow).toEqual([])
  })

  it('hands what the listener throws to onError, and nothing to the page', async () => {
    const { win, offer } = frame()
    const pageErrors: unknown[] = []
    win.addEventListener('error', (event) => void pageErrors.push(event))
    const handled: unknown[] = []
    const seen: unknown[] = []
    awaitRelayChannel(
      win,
      (data) => {
        seen.push(data)
        if (data === 'break') throw new Error('listener broke')
        if (data === 'break twice') throw new Error('again')
      },
      (error) => {
        handled.push((error as Error).message)
        // An onError that throws too: swallowed, the page still sees nothing.
        if ((error as Error).message === 'again') throw new Error('and the report')
      },
    )
    const relay = new FakeMessageChannel()
    offer(relay)
    for (const data of ['break', 'break twice', 'fine']) relay.port1.postMessage(data)
    await expect.poll(() => seen).toEqual(['break', 'break twice', 'fine'])
    expect(handled).toEqual(['listener broke', 'again'])
    expect(pageErrors).toEqual([])
  })

  it("reads every message with the `data` accessor of the offer's time: a page that replaces it later changes nothing", () => {
    // Accessors on the prototype, as browsers have them (happy-dom keeps own fields).
    class NativeMessageEvent {
      readonly #data: unknown
      constructor(
        data: unknown,
        readonly ports: unknown[] = [],
      ) {
        this.#data = data
      }
      get data(): unknown {
        return this.#data
      }
    }
    let take: ((event: unknown) => void) | undefined
    const stub = {
      addEventListener: (type: string, listener: (event: unknown) => void) => void (type === CHANNEL_EVENT && (take = listener)),
      removeEventListener: () => undefined,
    }
    const seen: unknown[] = []
    awaitRelayChannel(
      stub as unknown as Window,
      (data) => void seen.push(data),
      () => undefined,
    )
    const port = { postMessage: () => undefined, onmessage: null as ((event: unknown) => void) | null }
    take!(new NativeMessageEvent(null, [port]))
    port.onmessage!(new NativeMessageEvent('first'))
    Object.defineProperty(NativeMessageEvent.prototype, 'data', { get: () => 'forged' })
    port.onmessage!(new NativeMessageEvent('second'))
    expect(seen).toEqual(['first', 'second'])
  })
})
