// Reading a realtime message's kind from its first characters, so a message that carries audio
// (OpenAI's `input_audio_buffer.append`, Gemini's `realtimeInput`) is told apart without being
// parsed: the SDKs write the kind first (`{"type":"...` for OpenAI, `{"realtimeInput":` for Gemini).
import { stringIndexOf, stringSlice, stringStartsWith } from '../../intrinsics.ts'

/** Longer than any kind either protocol names. */
const LONGEST_KIND = 80

/** The characters between `opening` and the next quote, when the text starts with `opening`. */
export function quotedAfter(text: string, opening: string): string | undefined {
  if (!stringStartsWith(text, opening)) return undefined
  const end = stringIndexOf(text, '"', opening.length)
  return end < 0 || end - opening.length > LONGEST_KIND ? undefined : stringSlice(text, opening.length, end)
}
