// Which WebSockets may be realtime sessions, told from the address alone when the page opens them
// (docs/zero-code.md, "Realtime sessions"): OpenAI Realtime's path ends in `/realtime`
// (`wss://api.openai.com/v1/realtime?model=...`, Azure's `/openai/realtime`), Gemini Live's names
// its `BidiGenerateContent` method. Only these are read, and only once the server's first event
// says so is anything sent (the engine's session). Part of the start-up half: string checks only.
import { stringIndexOf, stringLastIndexOf, stringSlice } from '../../../../engine/intrinsics.ts'
import type { RealtimeProtocol } from '../../../../engine/wire/index.ts'

const OPENAI_PATH_END = '/realtime'

/** The protocol a connection to `address` may speak; undefined for every other address. */
export function realtimeProtocolOf(address: string): RealtimeProtocol | undefined {
  let end = address.length
  const query = stringIndexOf(address, '?')
  const fragment = stringIndexOf(address, '#')
  if (query >= 0) end = query
  if (fragment >= 0 && fragment < end) end = fragment
  const path = stringSlice(address, 0, end)
  if (stringIndexOf(path, 'BidiGenerateContent') >= 0) return 'gemini-live'
  const trimmed = stringLastIndexOf(path, '/') === path.length - 1 ? stringSlice(path, 0, path.length - 1) : path
  const at = stringLastIndexOf(trimmed, OPENAI_PATH_END)
  return at >= 0 && at === trimmed.length - OPENAI_PATH_END.length ? 'openai-realtime' : undefined
}
