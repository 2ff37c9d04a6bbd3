// Reading one response of an agent event stream as the page reads it: its text, in any pieces,
// through the server-sent events reader, each event's JSON handed to the protocol's reader, and
// the wire events the calls it completed produced handed back at once. The text read is bounded,
// so a huge or endless stream holds no more memory: past the bound, nothing more is read.
import { jsonParse } from '../../intrinsics.ts'
import { isRecord } from '../../records.ts'
import { createSseEvents } from '../sse-events.ts'
import type { AgentStreamProtocol, AgentStreamReading, JsonObject, WireEvent } from '../types.ts'
import { createAgUiEventReader, mayBeToolEvent } from './ag-ui-events.ts'
import type { StreamedSteps } from './streamed-steps.ts'
import { createUiMessageChunkReader, mayBeToolChunk } from './ui-message-chunks.ts'

// Taken when the engine loads: a page that replaces JSON later cannot steer what we read.
const parseJson = jsonParse

/** About 16 MB of text, as a response continued by id is bounded (docs/zero-code.md). */
export const MAX_STREAM_CHARS = 8 * 1024 * 1024

const READERS: Readonly<Record<AgentStreamProtocol, { readonly mayMatter: (data: string) => boolean; readonly create: (steps: StreamedSteps) => (value: JsonObject) => void }>> = {
  'ui-message-stream': { mayMatter: mayBeToolChunk, create: createUiMessageChunkReader },
  'ag-ui': { mayMatter: mayBeToolEvent, create: createAgUiEventReader },
}

/**
 * `steps` are the stream's steps, observed into `drain`'s events; `drain` hands over (and
 * forgets) the events produced since it was last called.
 */
export function createAgentStreamReading(protocol: AgentStreamProtocol, steps: StreamedSteps, drain: () => WireEvent[], maxChars = MAX_STREAM_CHARS): AgentStreamReading {
  const { mayMatter, create } = READERS[protocol]
  const read = create(steps)
  let chars = 0
  let over = false

  const sse = createSseEvents((data) => {
    if (!mayMatter(data)) return
    let value: unknown
    try {
      value = parseJson(data)
    } catch {
      // `[DONE]`, or a line that is no JSON: nothing of ours.
      return
    }
    if (isRecord(value)) read(value)
  })

  return {
    push(text) {
      if (over) return []
      chars += text.length
      if (chars > maxChars) {
        // What is buffered is let go, and the run read so far ends here.
        over = true
        sse.clear()
        return []
      }
      sse.push(text)
      return drain()
    },
    end() {
      // An event the body ended inside (cut or not) is no event: only whole ones were read.
      over = true
      sse.clear()
      return drain()
    },
  }
}
