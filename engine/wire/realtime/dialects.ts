// Each realtime protocol's dialect, by name.
import { geminiLive } from './gemini-live.ts'
import { openaiRealtime } from './openai-realtime.ts'
import type { RealtimeDialect, RealtimeProtocol } from './types.ts'

export const REALTIME_DIALECTS: Readonly<Record<RealtimeProtocol, RealtimeDialect>> = { 'openai-realtime': openaiRealtime, 'gemini-live': geminiLive }
