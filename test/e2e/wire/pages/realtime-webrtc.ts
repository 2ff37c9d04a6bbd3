// A realtime voice agent over WebRTC as a page writes it, with no code of the guard's: the Agents
// SDK's `RealtimeSession` over its `OpenAIRealtimeWebRTC` transport, and a data channel of the
// page's own under another label. Each runs against the local calls endpoint whose address the test
// gives; the agent's tool returns the same text every time. The microphone is a silent stream of
// the page's own making (a headless browser has none).
import { OpenAIRealtimeWebRTC } from '@openai/agents-realtime'
import { runReader } from './realtime-reader.ts'

const silentMicrophone = (): MediaStream => new AudioContext().createMediaStreamDestination().stream

/** Runs the agent until the model's final text; the text of every turn it ended. */
const openai = (callsUrl: string) => runReader(new OpenAIRealtimeWebRTC({ baseUrl: callsUrl, useInsecureApiKey: true, mediaStream: silentMicrophone(), audioElement: document.createElement('audio') }))

/**
 * A data channel labelled `label` to the same endpoint: sends each text (and one binary message),
 * and returns what came back. `besideSession`: an `oai-events` channel is made first, on a peer of
 * its own that never connects, as a page with a voice agent beside its own channel would.
 */
async function channel(callsUrl: string, label: string, texts: string[], besideSession = false): Promise<string[]> {
  const idle = besideSession ? new RTCPeerConnection() : undefined
  idle?.createDataChannel('oai-events')
  const peer = new RTCPeerConnection()
  const opened = peer.createDataChannel(label)
  const offer = await peer.createOffer()
  await peer.setLocalDescription(offer)
  const answer = await fetch(callsUrl, { method: 'POST', body: offer.sdp, headers: { 'Content-Type': 'application/sdp' } })
  await peer.setRemoteDescription({ type: 'answer', sdp: await answer.text() })
  await new Promise((open) => opened.addEventListener('open', open, { once: true }))
  const echoed: string[] = []
  const all = new Promise<void>((done) =>
    opened.addEventListener('message', (event) => {
      echoed.push(typeof event.data === 'string' ? event.data : `<${(event.data as ArrayBuffer).byteLength} bytes>`)
      if (echoed.length === texts.length + 1) done()
    }),
  )
  opened.binaryType = 'arraybuffer'
  for (const text of texts) opened.send(text)
  opened.send(new Uint8Array([1, 2, 3]))
  await all
  peer.close()
  idle?.close()
  return echoed
}

Object.assign(window, { realtimeWebrtc: { openai, channel } })
