// Which requests have their responses read for waste (docs/zero-code.md, "Waste"): only while an
// opt-in detector is on (waste is reported only then), and only a request of one of the four LLM
// APIs, told by the shape of its body: `contents` (Gemini), or a `model` with `messages` (Chat
// Completions, Anthropic) or `input` (Responses). The agent-stream protocols name no model.
import { anyDetectorOn } from '../../detectors/config.ts'
import type { GuardConfig } from '../../types.ts'
import { parseRecord } from '../../records.ts'

const NAMES = ['"contents"', '"messages"', '"input"']

type Body = Readonly<Record<string, unknown>>

export interface UsageRequests {
  /**
   * The wire guard parsed `text` as `body` for the request's analysis: the reading of its response,
   * asked for right after, takes that body instead of parsing the text again. Kept only while a
   * detector is on (no response is read otherwise), and only until the next request.
   */
  parsed(text: string, body: Body, config: GuardConfig): void
  /** Whether the response to the request whose body is `text` is read, under `config`. */
  reads(text: string, config: GuardConfig): boolean
}

export function createUsageRequests(): UsageRequests {
  let keptText: string | undefined
  let keptBody: Body | undefined
  return {
    parsed(text, body, config) {
      const keep = anyDetectorOn(config)
      keptText = keep ? text : undefined
      keptBody = keep ? body : undefined
    },
    reads(text, config) {
      const kept = text === keptText ? keptBody : undefined
      keptText = keptBody = undefined
      if (!anyDetectorOn(config) || !NAMES.some((name) => text.includes(name))) return false
      const body = kept ?? parseRecord(text)
      if (!body) return false
      if (Array.isArray(body.contents)) return true
      return typeof body.model === 'string' && (Array.isArray(body.messages) || body.input !== undefined)
    },
  }
}
