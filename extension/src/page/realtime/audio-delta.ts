// The server's audio, told from a text message's first characters alone (docs/zero-code.md,
// "Realtime sessions"): an OpenAI Realtime session streams it as `response.output_audio.delta`
// events (`response.audio.delta` in the beta protocol), several a second for as long as the model
// speaks, each a few kilobytes of base64 the guard never reads. The server writes the type first,
// so a prefix check on the raw text tells one apart before anything else is done with it: no
// parse, no slice, no session work. A delta written otherwise (another key first, spaces) is
// no less safe: the engine reads its kind and passes it by as well, at a higher cost. No Gemini
// Live message starts with a `type` key, so the check needs no protocol. Part of the start-up
// half: string checks only.
import { stringStartsWith } from '../../../../engine/intrinsics.ts'

/** The first characters of an audio delta, as the OpenAI Realtime server writes them (GA, then beta). */
const AUDIO_DELTA_HEAD = '{"type":"response.output_audio.delta"'
const BETA_AUDIO_DELTA_HEAD = '{"type":"response.audio.delta"'

/** Whether the server's text message `text` is an audio delta, from its first characters. */
export const isAudioDelta = (text: string): boolean => stringStartsWith(text, AUDIO_DELTA_HEAD) || stringStartsWith(text, BETA_AUDIO_DELTA_HEAD)
