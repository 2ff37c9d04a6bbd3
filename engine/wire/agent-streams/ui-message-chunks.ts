// The AI SDK's UI message stream (`x-vercel-ai-ui-message-stream: v1`), as `streamText(...)
// .toUIMessageStreamResponse()` writes it: one JSON chunk per `data:` line, `data: [DONE]` at the
// end. `start-step` opens a step; a call is named by `tool-input-start` (or, without streamed
// input, by `tool-input-available`), whole with `tool-input-available` (or `tool-input-error`: an
// input the tool refused, then an error result), and answered by `tool-output-available` or
// `tool-output-error`. Preliminary outputs are not results yet; a call the provider runs itself
// (`providerExecuted`) is not the agent's, as in the request's walk (formats/ai-sdk-ui.ts).
import { isToolName } from '../content.ts'
import type { JsonObject } from '../types.ts'
import { mayBeOfType } from './event-type.ts'
import type { StreamedSteps } from './streamed-steps.ts'

/** Whether a chunk's text may be one of the chunks read here: the rest (text, reasoning) are never parsed. */
export const mayBeToolChunk = (data: string): boolean => mayBeOfType(data, CHUNKS_READ)
const CHUNKS_READ = ['tool-', 'start-step']

/** Reads the chunks of one stream into `steps`. */
export function createUiMessageChunkReader(steps: StreamedSteps): (chunk: JsonObject) => void {
  /** Steps are told apart by their number in the stream. */
  let step = 0

  return (chunk) => {
    const { type, toolCallId: id } = chunk
    if (type === 'start-step') {
      step += 1
      return
    }
    if (typeof id !== 'string') return
    if (chunk.providerExecuted === true) {
      steps.drop(id)
      return
    }
    const name = isToolName(chunk.toolName) ? chunk.toolName : undefined
    switch (type) {
      case 'tool-input-start':
        steps.begin(id, String(step), name)
        break
      case 'tool-input-available':
      case 'tool-input-error':
        if (name === undefined) return
        steps.begin(id, String(step), name)
        steps.input(id, name, chunk.input)
        if (type === 'tool-input-error') steps.result(id, true, chunk.errorText)
        break
      case 'tool-output-available':
        if (chunk.preliminary !== true) steps.result(id, false, chunk.output)
        break
      case 'tool-output-error':
        steps.result(id, true, chunk.errorText)
        break
      case 'tool-output-denied':
        steps.drop(id)
        break
    }
  }
}
