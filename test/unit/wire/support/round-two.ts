// The round-2 reminder texts exactly as docs/detectors.md fixes them: tests compare against these,
// not against whatever the engine happens to produce.

export const SIMILAR_TEXT = (tool: string, count: number, preview: string): string =>
  'Near-repeated tool calls detected:\n' +
  `- tool: ${tool}\n` +
  `- similar_calls: ${count}\n` +
  `- last_arguments: ${preview}\n` +
  'The calls differ only slightly and keep returning to the same request. Inspect the latest result and decide whether a genuinely different approach is needed, or finish the task if enough evidence has been gathered.'

export const errorRunText = (tool: string, count: number, preview: string): string =>
  'Repeated tool errors detected:\n' +
  `- tool: ${tool}\n` +
  `- consecutive_errors: ${count}\n` +
  `- last_error: ${preview}\n` +
  'The tool keeps failing. Read the error, change the arguments or the approach, or report the failure instead of calling it again.'

export const repeatedTextReminder = (count: number): string => `You have given the same answer ${count} times in a row. If the task is complete, say so once and stop; otherwise take a different step.`
