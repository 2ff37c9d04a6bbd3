// Which events of an agent stream are parsed (engine/wire/agent-streams/event-type.ts): where the
// type is written first only its start is read, so an answer's text that mentions a tool costs
// nothing; where a server writes its keys in another order, the type is looked for anywhere.
import { expect, it } from 'vitest'
import { mayBeToolEvent } from '../../../../engine/wire/agent-streams/ag-ui-events.ts'
import { mayBeToolChunk } from '../../../../engine/wire/agent-streams/ui-message-chunks.ts'

it('reads the type where it is written first, and nothing else of the event', () => {
  expect(mayBeToolChunk('{"type":"tool-input-available","toolCallId":"c1"}')).toBe(true)
  expect(mayBeToolChunk('{"type":"start-step"}')).toBe(true)
  expect(mayBeToolChunk('{"type":"text-delta","id":"t1","delta":"call the tool-input-available start-step"}')).toBe(false)
  expect(mayBeToolEvent('{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}')).toBe(true)
  expect(mayBeToolEvent('{"type":"TEXT_MESSAGE_CONTENT","delta":"TOOL_CALL_START"}')).toBe(false)
})

it('looks for the type anywhere when the event does not open with it', () => {
  expect(mayBeToolChunk('{"toolCallId":"c1","type":"tool-output-available","output":1}')).toBe(true)
  expect(mayBeToolChunk('{ "type": "start-step" }')).toBe(true)
  expect(mayBeToolChunk('{"id":"t1","type":"text-delta","delta":"hi"}')).toBe(false)
  expect(mayBeToolEvent('{"toolCallId":"c1","type":"TOOL_CALL_END"}')).toBe(true)
  expect(mayBeToolEvent('{"type" : "RUN_STARTED"}')).toBe(false)
})
