// The two reminder texts, byte for byte as ENGINE.md gives them (and the original before it).

export const GENTLE =
  'You are repeating the exact same tool call with identical arguments. Carefully analyze the previous result before calling again: if the task is not complete, try a different approach or different arguments instead of repeating the call.'

export function detailed(tool: string, count: number, args: string): string {
  return `Repeated tool call detected:
- tool: ${tool}
- consecutive_calls: ${count}
- arguments: ${args}
The repeated calls are not making progress. Do not call this tool with these exact arguments again. Inspect the latest result and choose a different action, different arguments, or finish the task if enough evidence has been gathered.`
}
