import { describe, expect, test } from 'vitest'
import { MemoryProject, normalizePath, ProjectPathError } from '../../../playground/agent/project.ts'
import { SAMPLE_FILES } from '../../../playground/agent/sample-project.ts'
import { LEAD_TOOLS, PROJECT_TOOLS, runTool } from '../../../playground/agent/tools/registry.ts'
import type { SubagentHost, Workspace } from '../../../playground/agent/tools/tool.ts'

function workspace(allowDelete = false): Workspace {
  return { project: new MemoryProject(SAMPLE_FILES), permissions: { allowDelete }, todos: [], integrationChecks: 0 }
}
const run = (ws: Workspace, name: string, args: unknown, subagents?: SubagentHost) =>
  runTool(subagents ? LEAD_TOOLS : PROJECT_TOOLS, name, args, { workspace: ws, ...(subagents ? { subagents } : {}), yieldTurnUntil: (work) => work })

describe('project paths', () => {
  test('normalise, and never leave the project', () => {
    expect(normalizePath('./src//format.ts')).toBe('src/format.ts')
    expect(normalizePath('.')).toBe('')
    expect(() => normalizePath('src/../../etc/passwd')).toThrow(ProjectPathError)
  })
})

describe('file tools', () => {
  test('read_file returns the file, or says why not', async () => {
    const ws = workspace()
    expect(await run(ws, 'read_file', { path: 'src/format.ts' })).toEqual({ content: SAMPLE_FILES['src/format.ts'] })
    expect(await run(ws, 'read_file', { path: 'src' })).toEqual({ content: 'Error: cannot read src: it is a directory; use list_dir', isError: true })
    expect(await run(ws, 'read_file', { path: 'nope.ts' })).toEqual({ content: 'Error: cannot read nope.ts: no such file', isError: true })
    expect(await run(ws, 'read_file', { path: '../x' })).toEqual({ content: 'Error: ../x: paths cannot leave the project', isError: true })
  })

  test('list_dir lists direct children, directories marked', async () => {
    const ws = workspace()
    expect((await run(ws, 'list_dir', {})).content).toBe('README.md\nbuild/\npackage.json\nsrc/\ntest/')
    expect((await run(ws, 'list_dir', { path: 'src' })).content).toBe('format.ts\nindex.ts\nparse.ts\nreport.ts')
    expect(await run(ws, 'list_dir', { path: 'README.md' })).toEqual({ content: 'Error: README.md is not a directory', isError: true })
  })

  test('write_file creates and replaces; delete_path obeys the permission', async () => {
    const ws = workspace()
    expect((await run(ws, 'write_file', { path: 'docs/a.md', content: 'héllo' })).content).toBe('Wrote 6 bytes to docs/a.md')
    expect(ws.project.read('docs/a.md')).toBe('héllo')
    expect(await run(ws, 'write_file', { path: 'src', content: 'x' })).toEqual({ content: 'Error: src is a directory', isError: true })
    expect(await run(ws, 'delete_path', { path: 'build' })).toEqual({
      content: 'Permission denied: delete_path is not allowed in this project (tried to delete build).',
      isError: true,
      denied: true,
    })
    const allowed = workspace(true)
    expect((await run(allowed, 'delete_path', { path: 'build' })).content).toBe('Deleted build (2 files)')
    expect(await run(allowed, 'delete_path', { path: 'build' })).toEqual({ content: 'Error: build does not exist', isError: true })
    expect(await run(allowed, 'delete_path', { path: '.' })).toEqual({ content: 'Error: refusing to delete the project root', isError: true })
  })
})

describe('grep', () => {
  test('finds lines with their place, honours case and limits', async () => {
    const ws = workspace()
    expect((await run(ws, 'grep', { pattern: 'TODO', path: 'src' })).content).toBe(
      'src/format.ts:1: // TODO: pad month and day to two digits\nsrc/parse.ts:1: // TODO: reject dates that do not exist (2024-02-30)',
    )
    expect((await run(ws, 'grep', { pattern: 'todo', path: 'src' })).content).toBe('No matches for /todo/ under src')
    expect((await run(ws, 'grep', { pattern: 'todo', path: 'src', ignoreCase: true, maxResults: 1 })).content).toBe('src/format.ts:1: // TODO: pad month and day to two digits')
  })

  test('pages: maxResults matches a page, each page says whether another follows', async () => {
    const ws = workspace()
    const page = async (n: number) => (await run(ws, 'grep', { pattern: 'TODO', path: 'src', maxResults: 1, page: n })).content
    expect(await page(1)).toBe('src/format.ts:1: // TODO: pad month and day to two digits\n(page 1: more on page 2)')
    expect(await page(2)).toBe('src/parse.ts:1: // TODO: reject dates that do not exist (2024-02-30)\n(page 2: last page)')
    expect(await page(3)).toBe('No more matches for /TODO/ under src: page 3 is past the last one')
  })

  test('bad input is an error result, not an exception', async () => {
    const ws = workspace()
    expect((await run(ws, 'grep', { pattern: '(' })).isError).toBe(true)
    expect(await run(ws, 'grep', { pattern: 1 })).toEqual({ content: 'Error: "pattern" must be a string', isError: true })
    expect(await run(ws, 'grep', { pattern: 'x', page: 0 })).toEqual({ content: 'Error: "page" must be a positive integer', isError: true })
    expect(await run(ws, 'grep', { pattern: 'x', maxResults: 0 })).toEqual({ content: 'Error: "maxResults" must be a positive integer', isError: true })
    expect(await run(ws, 'grep', { pattern: 'x', path: 'nowhere' })).toEqual({ content: 'Error: nowhere does not exist', isError: true })
  })
})

describe('todo_write', () => {
  test('replaces the list and renders it', async () => {
    const ws = workspace()
    const out = await run(ws, 'todo_write', {
      todos: [
        { content: 'a', status: 'completed' },
        { content: 'b', status: 'pending' },
      ],
    })
    expect(out.content).toBe('Todo list updated (1/2 done):\n[x] a\n[ ] b')
    expect(ws.todos).toHaveLength(2)
    expect((await run(ws, 'todo_write', { todos: [{ content: 'a', status: 'done' }] })).content).toBe('Error: todos[0].status must be one of pending, in_progress, completed')
  })
})

describe('run_tests', () => {
  test('the unit suite fails until format.ts pads, then passes', async () => {
    const ws = workspace()
    const failing = await run(ws, 'run_tests', {})
    expect(failing.isError).toBe(true)
    expect(failing.content).toContain("✗ test/format.test.ts > formatDate pads month and day\n    AssertionError: expected '2024-3-7' to be '2024-03-07'")
    expect(failing.content).toContain('Tests: 1 failed, 1 passed (2)')
    ws.project.write('src/format.ts', "const pad = (n: number) => String(n).padStart(2, '0') // getFullYear()")
    expect(await run(ws, 'run_tests', { suite: 'unit' })).toEqual({
      content: '✓ test/format.test.ts > formatDate pads month and day\n✓ test/format.test.ts > formatDate keeps the year\n\nTests: 2 passed (2)',
    })
  })

  test('the integration pipeline finishes one job per check', async () => {
    const ws = workspace()
    const checks = []
    for (let i = 0; i < 5; i++) checks.push((await run(ws, 'run_tests', { suite: 'integration' })).content)
    expect(checks).toEqual([
      'integration pipeline: running (1/4 jobs finished: lint)',
      'integration pipeline: running (2/4 jobs finished: lint, unit)',
      'integration pipeline: running (3/4 jobs finished: lint, unit, build)',
      'integration pipeline: passed (4/4 jobs finished: lint, unit, build, e2e)',
      'integration pipeline: passed (4/4 jobs finished: lint, unit, build, e2e)',
    ])
    expect((await run(ws, 'run_tests', { suite: 'e2e' })).content).toBe('Error: unknown suite "e2e" (known: unit, integration)')
  })
})

describe('service tools', () => {
  test('fetch_url fails for every http(s) URL, as offline, and says why a URL is not one', async () => {
    const ws = workspace()
    expect(await run(ws, 'fetch_url', { url: 'https://registry.npmjs.org/tiny-dates' })).toEqual({
      content: 'Error: request to https://registry.npmjs.org/tiny-dates failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org',
      isError: true,
    })
    expect(await run(ws, 'fetch_url', { url: 'http://localhost:8080/a?b=1' })).toMatchObject({ content: expect.stringContaining('EAI_AGAIN localhost'), isError: true })
    expect(await run(ws, 'fetch_url', { url: 'npmjs.org' })).toEqual({ content: 'Error: "url" is not a URL: npmjs.org', isError: true })
    expect(await run(ws, 'fetch_url', { url: 'file:///etc/passwd' })).toEqual({ content: 'Error: "url" must be http:// or https://, not file:', isError: true })
  })

  test('ci_status answers the same for every requestId, and wants one', async () => {
    const ws = workspace()
    const nightly = await run(ws, 'ci_status', { pipeline: 'nightly', requestId: 'req_1' })
    expect(nightly).toEqual({ content: expect.stringMatching(/^nightly #412: failed .*\n✗ e2e: 2 failed .*\nNo run queued\.$/s) })
    expect(await run(ws, 'ci_status', { pipeline: 'nightly', requestId: 'req_2' })).toEqual(nightly)
    expect((await run(ws, 'ci_status', { pipeline: 'main', requestId: 'req_3' })).content).toMatch(/^main #1031: passed/)
    expect(await run(ws, 'ci_status', { pipeline: 'nightly' })).toEqual({ content: 'Error: "requestId" must be a string', isError: true })
    expect(await run(ws, 'ci_status', { pipeline: 'nightly', requestId: '' })).toEqual({ content: 'Error: "requestId" must not be empty', isError: true })
    expect(await run(ws, 'ci_status', { pipeline: 'toString', requestId: 'r' })).toEqual({ content: 'Error: unknown pipeline "toString" (known: nightly, main)', isError: true })
  })
})

describe('runTool', () => {
  test('unknown tools and non-object arguments are error results', async () => {
    const ws = workspace()
    expect((await run(ws, 'rm_rf', {})).content).toMatch(/^Error: unknown tool "rm_rf" \(available: read_file, list_dir, grep/)
    expect(await run(ws, 'read_file', ['a'])).toEqual({ content: 'Error: read_file expects a JSON object of arguments', isError: true })
  })

  test('subagent tools need a host: subagents get none', async () => {
    const ws = workspace()
    expect((await run(ws, 'spawn_subagent', { name: 'x', task: 'y' })).content).toMatch(/^Error: unknown tool "spawn_subagent"/)
    const host: SubagentHost = { start: (name, task) => `started ${name}: ${task}`, wait: async (name) => `report of ${name}` }
    expect((await run(ws, 'spawn_subagent', { name: 'x', task: 'y' }, host)).content).toBe('started x: y')
    expect((await run(ws, 'wait_subagent', { name: 'x' }, host)).content).toBe('report of x')
    const lead = (name: string) => runTool(LEAD_TOOLS, name, { name: 'x', task: 'y' }, { workspace: ws, yieldTurnUntil: (work) => work })
    expect((await lead('spawn_subagent')).content).toBe('Error: subagents cannot start or wait for subagents')
  })
})
