// The file tools: read, list, write and delete on the in-memory project.
import { normalizePath } from '../project.ts'
import { requireString, optionalString, ToolInputError, type Tool } from './tool.ts'

const pathParameter = { type: 'string', description: 'A path relative to the project root, e.g. src/format.ts' }

export const readFile: Tool = {
  name: 'read_file',
  description: 'Read a file of the project and return its full text.',
  parameters: { type: 'object', properties: { path: pathParameter }, required: ['path'], additionalProperties: false },
  run(args, { workspace }) {
    const path = requireString(args, 'path')
    const text = workspace.project.read(path)
    if (text !== undefined) return { content: text }
    const hint = workspace.project.isDirectory(path) ? 'it is a directory; use list_dir' : 'no such file'
    return { content: `Error: cannot read ${normalizePath(path) || '.'}: ${hint}`, isError: true }
  },
}

export const listDir: Tool = {
  name: 'list_dir',
  description: 'List the entries of a directory of the project; directories end with "/".',
  parameters: { type: 'object', properties: { path: { ...pathParameter, description: 'A directory; "." is the root' } }, additionalProperties: false },
  run(args, { workspace }) {
    const path = optionalString(args, 'path', '.')
    const entries = workspace.project.list(path)
    if (entries === undefined) return { content: `Error: ${normalizePath(path)} is not a directory`, isError: true }
    return { content: entries.join('\n') }
  },
}

export const writeFile: Tool = {
  name: 'write_file',
  description: 'Create or replace a file of the project with the given text.',
  parameters: {
    type: 'object',
    properties: { path: pathParameter, content: { type: 'string', description: 'The whole new text of the file' } },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  run(args, { workspace }) {
    const path = requireString(args, 'path')
    const content = requireString(args, 'content')
    workspace.project.write(path, content)
    return { content: `Wrote ${new TextEncoder().encode(content).length} bytes to ${normalizePath(path)}` }
  },
}

export const deletePath: Tool = {
  name: 'delete_path',
  description: 'Delete a file or a whole directory of the project. Subject to the permission setting.',
  parameters: { type: 'object', properties: { path: pathParameter }, required: ['path'], additionalProperties: false },
  run(args, { workspace }) {
    const path = normalizePath(requireString(args, 'path'))
    if (!workspace.permissions.allowDelete) return { content: `Permission denied: delete_path is not allowed in this project (tried to delete ${path || '.'}).`, isError: true, denied: true }
    if (path === '') throw new ToolInputError('refusing to delete the project root')
    const count = workspace.project.remove(path)
    if (count === 0) return { content: `Error: ${path} does not exist`, isError: true }
    return { content: `Deleted ${path} (${count} file${count === 1 ? '' : 's'})` }
  },
}
