// The two reminder texts, byte for byte as docs/engine.md ("Reminders") gives them (and the original before it).

export const GENTLE =
  'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.'

export function detailed(tool: string, count: number, args: string): string {
  return `Repeated tool call detected:
- tool: ${tool}
- consecutive_calls: ${count}
- arguments: ${args}
The repeated calls are not making progress. Do not call this tool with these exact arguments again. Inspect the latest result and choose a different action, different arguments, or finish the task if enough evidence has been gathered.`
}

// The detectors' texts, byte for byte as docs/detectors.md ("Reminder texts") gives them.

export const SAME_TOOL_GENTLE =
  'You are calling the same tool again and again. Carefully analyze the previous results before calling it again: if the task is not complete, try a different approach or a different tool.'

export function sameToolDetailed(tool: string, count: number, lastArgs: string): string {
  return `Repeated tool use detected:
- tool: ${tool}
- consecutive_calls: ${count}
- last_arguments: ${lastArgs}
The repeated calls are not making progress. Inspect the latest result and choose a different action, or finish the task if enough evidence has been gathered.`
}

export function cycleText(repetitions: number, calls: readonly (readonly [tool: string, args: string])[]): string {
  return `Repeated cycle of tool calls detected:
- cycle: ${calls.map(([tool]) => tool).join(' -> ')}
- repetitions: ${repetitions}
- calls:
${calls.map(([tool, args], i) => `  ${i + 1}. ${tool} ${args}`).join('\n')}
The same sequence of calls keeps coming back without progress. Inspect the latest results and choose a different action, or finish the task if enough evidence has been gathered.`
}

export function blockText(tool: string, count: number, stopAfter: number): string {
  return `Blocked by repeat-tool-guard: ${tool} was already called ${count} times in a row with identical arguments (stopAfter: ${stopAfter}). Choose a different action.`
}
