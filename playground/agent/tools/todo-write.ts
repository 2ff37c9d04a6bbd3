// The agent's to-do list: bookkeeping, not work (the recommended config excludes it from chains).
import { ToolInputError, type Todo, type Tool } from './tool.ts'

const STATUSES: readonly Todo['status'][] = ['pending', 'in_progress', 'completed']
const MARK: Record<Todo['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' }

function readTodos(value: unknown): Todo[] {
  if (!Array.isArray(value)) throw new ToolInputError('"todos" must be an array')
  return value.map((item: unknown, i) => {
    const { content, status } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
    if (typeof content !== 'string' || content === '') throw new ToolInputError(`todos[${i}].content must be a non-empty string`)
    if (!STATUSES.includes(status as Todo['status'])) throw new ToolInputError(`todos[${i}].status must be one of ${STATUSES.join(', ')}`)
    return { content, status: status as Todo['status'] }
  })
}

export const todoWrite: Tool = {
  name: 'todo_write',
  description: "Replace the agent's to-do list. Use it to plan and to track progress.",
  parameters: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        items: {
          type: 'object',
          properties: { content: { type: 'string' }, status: { type: 'string', enum: STATUSES } },
          required: ['content', 'status'],
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  },
  run(args, { workspace }) {
    const todos = readTodos(args.todos)
    workspace.todos = todos
    const done = todos.filter((t) => t.status === 'completed').length
    return { content: [`Todo list updated (${done}/${todos.length} done):`, ...todos.map((t) => `${MARK[t.status]} ${t.content}`)].join('\n') }
  },
}
