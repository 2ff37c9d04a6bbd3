// The calls endpoint of OpenAI Realtime over WebRTC, as a route of a test's local server, answering
// as the provider does: the client POSTs its SDP offer (`application/sdp`) to `/v1/realtime/calls`,
// and gets `201 Created` with a `Location` naming the call and the SDP answer of a real WebRTC peer
// (`werift`, on 127.0.0.1 unless told otherwise), which speaks the realtime protocol on the client's
// `oai-events` data channel with the scripted model of realtime-server.ts. Any other channel of the call is a plain echo. Every text message a
// client sends is kept, in order, per channel.
import { RTCPeerConnection, useOPUS, type RTCDataChannel } from 'werift'
import { READ, speakOpenAi, type Script } from './realtime-server.ts'
import type { Route } from './server.ts'

export interface DataChannelRecord {
  /** The call the channel belongs to (the last segment of its `Location`). */
  readonly call: string
  readonly label: string
  /** Every message the client sent on it, as text (binary ones as `<binary n bytes>`), in order. */
  readonly received: string[]
}

export interface WebRtcCalls {
  /** The route that answers the offers, for the page's own server (so the offer is same-origin). */
  readonly route: Route
  readonly channels: DataChannelRecord[]
  /** The offers' `Authorization` headers, in order. */
  readonly authorizations: string[]
  close(): Promise<void>
}

const LOOPBACK = '127.0.0.1'
export const CALLS_PATH = '/v1/realtime/calls'

function answerChannel(channel: RTCDataChannel, record: DataChannelRecord, script: Script): void {
  channel.onMessage.subscribe((data) => void record.received.push(typeof data === 'string' ? data : `<binary ${data.length} bytes>`))
  if (record.label === 'oai-events') {
    const peer = { send: (text: string) => channel.send(text), onText: (listener: (text: string) => void) => void channel.onMessage.subscribe((data) => typeof data === 'string' && listener(data)) }
    speakOpenAi(peer, record, script)
  } else channel.onMessage.subscribe((data) => channel.send(data))
}

interface CallsOptions {
  readonly script?: Script
  /**
   * Where the peer takes connectivity checks: on 127.0.0.1 alone (the default; Chromium reaches it
   * with --allow-loopback-in-peer-connection), or on every IPv4 address of the machine too. Firefox
   * gathers no loopback candidate, and the transport sends its offer before gathering any, so the
   * peer must answer Firefox's checks on the address Firefox sends them from.
   */
  readonly interfaces?: 'loopback' | 'all'
}

export function createWebRtcCalls({ script = READ, interfaces = 'loopback' }: CallsOptions = {}): WebRtcCalls {
  const channels: DataChannelRecord[] = []
  const authorizations: string[] = []
  const peers: RTCPeerConnection[] = []
  let calls = 0
  const route: Route = async (request, response, body) => {
    if (request.method !== 'POST' || request.url?.split('?')[0] !== CALLS_PATH) return false
    if (request.headers['content-type'] !== 'application/sdp') {
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'expected an SDP offer', type: 'invalid_request_error' } }))
      return true
    }
    authorizations.push(request.headers.authorization ?? '')
    const call = `rtc_${(++calls).toString().padStart(6, '0')}`
    const addresses = interfaces === 'loopback' ? { iceInterfaceAddresses: { udp4: LOOPBACK } } : {}
    const peer = new RTCPeerConnection({ codecs: { audio: [useOPUS()] }, iceUseIpv6: false, ...addresses, iceAdditionalHostAddresses: [LOOPBACK] })
    peers.push(peer)
    peer.onDataChannel.subscribe((channel) => {
      const record: DataChannelRecord = { call, label: channel.label, received: [] }
      channels.push(record)
      answerChannel(channel, record, script)
    })
    await peer.setRemoteDescription({ type: 'offer', sdp: body.toString() })
    await peer.setLocalDescription(await peer.createAnswer())
    response.writeHead(201, { 'content-type': 'application/sdp', location: `${CALLS_PATH}/${call}` })
    response.end(peer.localDescription!.sdp)
    return true
  }
  return { route, channels, authorizations, close: async () => void (await Promise.all(peers.map((peer) => peer.close()))) }
}
