// AG-UI's event stream, as `@ag-ui/encoder` writes it for an `Accept: text/event-stream` request:
// one JSON event per `data:` line, no `event:` line. A call is `TOOL_CALL_START` (`toolCallId`,
// `toolCallName`, `parentMessageId`), its arguments' JSON text in `TOOL_CALL_ARGS` deltas, then
// `TOOL_CALL_END`; its result `TOOL_CALL_RESULT`. The client puts a call in the assistant message
// `parentMessageId` names (a message of its own without one), so that message is the call's
// step, as the next request's walk reads it (formats/ag-ui.ts).
import { isToolName, resultContent } from '../content.ts'
import type { JsonObject } from '../types.ts'
import { mayBeOfType } from './event-type.ts'
import type { StreamedSteps } from './streamed-steps.ts'

/** Whether an event's text may be one of the events read here: the rest (text, state) are never parsed. */
export const mayBeToolEvent = (data: string): boolean => mayBeOfType(data, EVENTS_READ)
const EVENTS_READ = ['TOOL_CALL_']

/** Reads the events of one stream into `steps`. */
export function createAgUiEventReader(steps: StreamedSteps): (event: JsonObject) => void {
  /** The arguments' text of each call still streaming them, and its tool's name. */
  const open = new Map<string, { readonly name: string; args: string }>()

  return (event) => {
    const id = event.toolCallId
    if (typeof id !== 'string') return
    switch (event.type) {
      case 'TOOL_CALL_START': {
        if (!isToolName(event.toolCallName)) return
        const step = typeof event.parentMessageId === 'string' ? event.parentMessageId : id
        steps.begin(id, step, event.toolCallName)
        open.set(id, { name: event.toolCallName, args: '' })
        break
      }
      case 'TOOL_CALL_ARGS': {
        const call = open.get(id)
        if (call && typeof event.delta === 'string') call.args += event.delta
        break
      }
      case 'TOOL_CALL_END': {
        const call = open.get(id)
        if (!call) return
        open.delete(id)
        steps.input(id, call.name, call.args)
        break
      }
      case 'TOOL_CALL_RESULT':
        steps.result(id, false, resultContent(event.content))
        break
    }
  }
}
