// The audio of an OpenAI Realtime session, told from a text message's first characters alone
// (docs/zero-code.md, "Realtime sessions"): the server streams its speech as
// `response.output_audio.delta` events (`response.audio.delta` in the beta protocol) and the
// client its microphone as `input_audio_buffer.append`, several a second each way for as long as
// anyone speaks, each a few kilobytes of base64 the guard never reads. Both sides write the type
// first, so a prefix check on the raw text tells one apart before anything else is done with it:
// no parse, no slice, no session work. A message written otherwise (another key first, spaces) is
// no less safe: the engine reads its kind and passes it over as well, at a higher cost. No Gemini
// Live message starts with a `type` key, so the checks need no protocol. Part of the start-up
// half: string checks only.
import { stringStartsWith } from '../../../../engine/intrinsics.ts'

/** The first characters of an audio delta, as the OpenAI Realtime server writes them (GA, then beta). */
const AUDIO_DELTA_HEAD = '{"type":"response.output_audio.delta"'
const BETA_AUDIO_DELTA_HEAD = '{"type":"response.audio.delta"'
/** The first characters of the client's audio, as the OpenAI SDKs write them (both protocols). */
const AUDIO_APPEND_HEAD = '{"type":"input_audio_buffer.append"'

/** Whether the server's text message `text` is an audio delta, from its first characters. */
export const isAudioDelta = (text: string): boolean => stringStartsWith(text, AUDIO_DELTA_HEAD) || stringStartsWith(text, BETA_AUDIO_DELTA_HEAD)

/** Whether the client's text message `text` is a chunk of its audio, from its first characters. */
export const isAudioAppend = (text: string): boolean => stringStartsWith(text, AUDIO_APPEND_HEAD)
