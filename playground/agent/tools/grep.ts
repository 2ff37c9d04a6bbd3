// Search the project's files line by line with a regular expression, like `grep -rn`.
import { normalizePath } from '../project.ts'
import { optionalBoolean, optionalPositiveInteger, optionalString, requireString, ToolInputError, type Tool } from './tool.ts'

export const grep: Tool = {
  name: 'grep',
  description: 'Search the files under a path for lines matching a regular expression. Returns "path:line: text" lines.',
  parameters: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'A JavaScript regular expression' },
      path: { type: 'string', description: 'A file or directory to search; "." (the default) is the whole project' },
      ignoreCase: { type: 'boolean', description: 'Match without regard to case (default false)' },
      maxResults: { type: 'integer', description: 'Stop after this many matching lines (default 50)' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  run(args, { workspace }) {
    const pattern = requireString(args, 'pattern')
    const path = optionalString(args, 'path', '.')
    const maxResults = optionalPositiveInteger(args, 'maxResults', 50)
    let regex: RegExp
    try {
      regex = new RegExp(pattern, optionalBoolean(args, 'ignoreCase', false) ? 'i' : '')
    } catch (error) {
      throw new ToolInputError(`invalid pattern: ${(error as Error).message}`)
    }
    const { project } = workspace
    const files = project.filesUnder(path)
    if (files.length === 0) return { content: `Error: ${normalizePath(path)} does not exist`, isError: true }
    const matches: string[] = []
    for (const file of files) {
      const lines = (project.read(file) ?? '').split('\n')
      for (let i = 0; i < lines.length && matches.length < maxResults; i++) {
        if (regex.test(lines[i]!)) matches.push(`${file}:${i + 1}: ${lines[i]}`)
      }
    }
    return { content: matches.length > 0 ? matches.join('\n') : `No matches for /${pattern}/ under ${normalizePath(path) || '.'}` }
  },
}
