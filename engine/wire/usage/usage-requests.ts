// Which requests have their responses read for waste (docs/zero-code.md, "Waste"): only while an
// opt-in detector is on (waste is reported only then), and only a request of one of the four LLM
// APIs, told by the shape of its body: `contents` (Gemini), or a `model` with `messages` (Chat
// Completions, Anthropic) or `input` (Responses). The agent-stream protocols name no model.
import { anyDetectorOn } from '../../detectors/config.ts'
import type { GuardConfig } from '../../types.ts'
import { parseRecord } from '../../records.ts'

const NAMES = ['"contents"', '"messages"', '"input"']

export function readsUsage(text: string, config: GuardConfig): boolean {
  if (!anyDetectorOn(config) || !NAMES.some((name) => text.includes(name))) return false
  const body = parseRecord(text)
  if (!body) return false
  if (Array.isArray(body.contents)) return true
  return typeof body.model === 'string' && (Array.isArray(body.messages) || body.input !== undefined)
}
