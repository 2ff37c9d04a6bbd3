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
      page: { type: 'integer', description: 'With more matches than maxResults: which page of them, from 1' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  run(args, { workspace }) {
    const pattern = requireString(args, 'pattern')
    const path = optionalString(args, 'path', '.')
    const maxResults = optionalPositiveInteger(args, 'maxResults', 50)
    const paged = args.page !== undefined
    const page = optionalPositiveInteger(args, 'page', 1)
    const skip = (page - 1) * maxResults
    let regex: RegExp
    try {
      regex = new RegExp(pattern, optionalBoolean(args, 'ignoreCase', false) ? 'i' : '')
    } catch (error) {
      throw new ToolInputError(`invalid pattern: ${(error as Error).message}`)
    }
    const { project } = workspace
    const files = project.filesUnder(path)
    if (files.length === 0) return { content: `Error: ${normalizePath(path)} does not exist`, isError: true }
    // One match past the page tells a paged search whether another page follows.
    const wanted = skip + maxResults + (paged ? 1 : 0)
    const matches: string[] = []
    for (const file of files) {
      const lines = (project.read(file) ?? '').split('\n')
      for (let i = 0; i < lines.length && matches.length < wanted; i++) {
        if (regex.test(lines[i]!)) matches.push(`${file}:${i + 1}: ${lines[i]}`)
      }
    }
    const shown = matches.slice(skip, skip + maxResults)
    const where = normalizePath(path) || '.'
    if (!paged) return { content: shown.length > 0 ? shown.join('\n') : `No matches for /${pattern}/ under ${where}` }
    if (shown.length === 0) return { content: `No more matches for /${pattern}/ under ${where}: page ${page} is past the last one` }
    const more = matches.length > skip + maxResults ? `more on page ${page + 1}` : 'last page'
    return { content: `${shown.join('\n')}\n(page ${page}: ${more})` }
  },
}
