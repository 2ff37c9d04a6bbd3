// Tools that let a lead agent delegate: a subagent runs with its own conversation, its steps
// interleaved with the lead's, until the lead waits for its report.
import { requireString, ToolInputError, type Tool, type ToolContext } from './tool.ts'

function hostOf(context: ToolContext) {
  if (!context.subagents) throw new ToolInputError('subagents cannot start or wait for subagents')
  return context.subagents
}

export const spawnSubagent: Tool = {
  name: 'spawn_subagent',
  description: 'Start a subagent with its own conversation on a task. It works alongside you; collect its report with wait_subagent.',
  parameters: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'A short name, e.g. explorer' },
      task: { type: 'string', description: 'What the subagent should do and report' },
    },
    required: ['name', 'task'],
    additionalProperties: false,
  },
  run(args, context) {
    return { content: hostOf(context).start(requireString(args, 'name'), requireString(args, 'task')) }
  },
}

export const waitSubagent: Tool = {
  name: 'wait_subagent',
  description: 'Wait until a subagent finishes and return its final report.',
  parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
  async run(args, context) {
    const report = hostOf(context).wait(requireString(args, 'name'))
    return { content: await context.yieldTurnUntil(report) }
  },
}
