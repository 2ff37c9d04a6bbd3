// The audio of a realtime session, told from a message's first characters before the session's
// reading is asked anything (extension/src/page/realtime/audio-messages.ts): which texts are audio
// deltas or the client's audio, that a session's calls and results are still counted among them
// (whichever event carries the call), and that audio alone never even starts the guard, on a
// socket and on a data channel.
import { describe, expect, test } from 'vitest'
import { isAudioAppend, isAudioDelta } from '../../../../../extension/src/page/realtime/audio-messages.ts'
import { audioDelta, functionCallOutput, functionCallResponse, sessionCreated } from '../../../../fixtures/realtime/openai-events.ts'
import { channelPage } from './channel-page.ts'
import { type Carrier, READ_ARGS, sentKinds, twoAfterEachOutput } from './realtime-run.ts'
import { socketPage } from './socket-page.ts'

const ADDRESS = 'wss://api.openai.com/v1/realtime?model=gpt-realtime'
const delta = (beta = false) => JSON.stringify(audioDelta(beta))
const withType = (type: string) => JSON.stringify({ ...audioDelta(), type })
/** 100 ms of the client's microphone, as the OpenAI SDKs send it. */
const append = (audio = 'AAAA'.repeat(1_600)) => JSON.stringify({ type: 'input_audio_buffer.append', audio })

describe('an audio delta', () => {
  test.each([
    ['the GA protocol', delta(), true],
    ['the beta protocol', delta(true), true],
    ['its transcript', withType('response.output_audio_transcript.delta'), false],
    ["the beta protocol's transcript", withType('response.audio_transcript.delta'), false],
    ['the end of the audio', withType('response.output_audio.done'), false],
    ["the beta protocol's end of the audio", withType('response.audio.done'), false],
    ['an output item', withType('response.output_item.done'), false],
    ['the arguments of a call', withType('response.function_call_arguments.done'), false],
    ["the client's audio", JSON.stringify({ type: 'input_audio_buffer.append', audio: 'AAAA' }), false],
    ['a delta with another key first (read by the engine instead)', JSON.stringify({ event_id: 'e', type: 'response.output_audio.delta' }), false],
    ['a delta after a space (read by the engine instead)', ` ${delta()}`, false],
    ['a message holding a delta further on', JSON.stringify({ type: 'response.done', response: { output: [audioDelta()] } }), false],
  ])('%s', (_name, text, audio) => {
    expect(isAudioDelta(text)).toBe(audio)
  })
})

/** The events of a call that name it: a mis-written audio check that hid one of them would lose the call it alone carries. */
const CALL_CARRIERS = ['response.function_call_arguments.done', 'response.output_item.done', 'response.done'] as const

/** `times` calls of one tool with the same arguments, each told by `carrier`'s event alone, among audio deltas of both protocols, the client's audio around each result. */
function runAmongAudio(channel: Carrier, times: number, carrier: (typeof CALL_CARRIERS)[number]): void {
  channel.hear(JSON.stringify(sessionCreated('You read files.')))
  for (let n = 0; n < times; n++) {
    const call = functionCallResponse('read_file', READ_ARGS)
    for (const event of call.events) {
      if (CALL_CARRIERS.includes(event.type as (typeof CALL_CARRIERS)[number]) && event.type !== carrier) continue
      channel.hear(delta())
      channel.hear(JSON.stringify(event))
      channel.hear(delta(true))
    }
    channel.send(append())
    channel.send(JSON.stringify(functionCallOutput(call.callId, 'same')))
    channel.send('{"type":"response.create"}')
    channel.send(append())
  }
}

describe("the client's audio", () => {
  test.each([
    ['a chunk of it', append(), true],
    ['its commit', JSON.stringify({ type: 'input_audio_buffer.commit' }), false],
    ['its clearing', JSON.stringify({ type: 'input_audio_buffer.clear' }), false],
    ['a tool result', JSON.stringify(functionCallOutput('call_1', 'same')), false],
    ['a chunk with another key first (read by the engine instead)', JSON.stringify({ event_id: 'e', type: 'input_audio_buffer.append', audio: 'AAAA' }), false],
    ['a message holding a chunk further on', JSON.stringify({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'c', output: append() } }), false],
  ])('%s', (_name, text, audio) => {
    expect(isAudioAppend(text)).toBe(audio)
  })
})

describe('a session streaming audio', () => {
  test.each(CALL_CARRIERS)('a call told by %s alone is counted: the reminder goes right after the 3rd result', (carrier) => {
    const p = socketPage()
    runAmongAudio(p.open(ADDRESS), 3, carrier)
    expect(twoAfterEachOutput(p.sent)).toEqual([
      ['response.create', 'input_audio_buffer.append'],
      ['response.create', 'input_audio_buffer.append'],
      ['message', 'response.create'],
    ])
    expect(p.events.filter((e) => e.type === 'agent')).toMatchObject([{ agent: { label: 'You read files.', reach: 'realtime-ws' } }])
  })

  test('on a data channel the same: a call among audio deltas is counted', () => {
    const p = channelPage()
    runAmongAudio(p.open('oai-events'), 3, 'response.function_call_arguments.done')
    expect(sentKinds(p.sent).filter((k) => k === 'message')).toHaveLength(1)
  })
})

describe('audio alone', () => {
  test("the client's audio sent before anything else never starts the guard; its first other message does", () => {
    const p = socketPage()
    const socket = p.open(ADDRESS)
    for (let n = 0; n < 3; n++) socket.send(append())
    const beforeSession = p.asked
    socket.send('{"type":"session.update","session":{"type":"realtime"}}')
    expect([beforeSession, p.asked, p.sent.length]).toEqual([0, 1, 4])
  })

  test('audio deltas and binary frames heard before the session opens never start the guard; its first event does', () => {
    const p = socketPage()
    const socket = p.open(ADDRESS)
    for (const data of [delta(), delta(true), new ArrayBuffer(4_800)]) socket.hear(data)
    const beforeSession = p.asked
    socket.hear(JSON.stringify(sessionCreated('You talk.')))
    expect([beforeSession, p.asked]).toEqual([0, 1])
  })

  test('on a data channel the same', () => {
    const p = channelPage()
    const channel = p.open('oai-events')
    for (const data of [delta(), delta(true), new ArrayBuffer(4_800)]) channel.hear(data)
    const beforeSession = p.asked
    channel.hear(JSON.stringify(sessionCreated('You talk.')))
    expect([beforeSession, p.asked]).toEqual([0, 1])
  })
})
