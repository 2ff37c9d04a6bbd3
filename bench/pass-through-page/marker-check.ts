// The shipped check for tool-call markers, put on the window of the fetch pass-through bench's page, built as
// page.js is built (one classic script), so the page times the very function the interceptor runs.
import { mayHoldToolCall } from '../../engine/wire/detect.ts'

declare global {
  interface Window {
    mayHoldToolCall: typeof mayHoldToolCall
  }
}
window.mayHoldToolCall = mayHoldToolCall
