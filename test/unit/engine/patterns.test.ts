import { describe, expect, it } from 'vitest'
import { createRepeatToolGuard, resolveConfig } from '../../../engine/index.ts'
import { createToolFilter } from '../../../engine/patterns.ts'

/** Whether `pattern`, used as the only include pattern, tracks `tool`. */
const matches = (pattern: string, tool: string) => createToolFilter(resolveConfig({ include: [pattern] }))(tool)

describe('tool-name patterns', () => {
  it('read `*` as any run of characters, across `/` and `.` too', () => {
    expect(matches('mcp_*', 'mcp_github_create_issue')).toBe(true)
    expect(matches('mcp_*', 'mcp_')).toBe(true)
    expect(matches('mcp_*', 'mcp/github.create')).toBe(false)
    expect(matches('mcp*', 'mcp/github.create')).toBe(true)
    expect(matches('*', '.hidden/tool.v2')).toBe(true)
    expect(matches('*.read', 'fs/v1.read')).toBe(true)
    expect(matches('a*b*c', 'a/x.b/y.c')).toBe(true)
    expect(matches('a**c', 'a/b/c')).toBe(true)
    expect(matches('*_file', 'read_file\nwrite_file')).toBe(true)
    expect(matches('*', 'x/')).toBe(true)
  })

  it('let `*` take `.` and `..` path segments and names, since tool names are not paths', () => {
    expect(matches('fs*', 'fs/../x')).toBe(true)
    expect(matches('a*b', 'a/./b')).toBe(true)
    expect(matches('*', '.')).toBe(true)
    expect(matches('*', '..')).toBe(true)
    expect(matches('a/*', 'a/..')).toBe(true)
    expect(matches('a/b', 'a/b')).toBe(true)
    expect(matches('a/b', 'a\uE000b')).toBe(false)
  })

  it('match the whole name', () => {
    expect(matches('read', 'read_file')).toBe(false)
    expect(matches('file', 'read_file')).toBe(false)
    expect(matches('read_file', 'read_file/')).toBe(false)
    expect(matches('*file', 'read_files')).toBe(false)
  })

  it('take every other character literally', () => {
    expect(matches('pr.be', 'probe')).toBe(false)
    expect(matches('pr.be', 'pr.be')).toBe(true)
    expect(matches('pr.be', 'pr\\.be')).toBe(false)
    expect(matches('grep?', 'grepx')).toBe(false)
    expect(matches('grep?', 'grep?')).toBe(true)
    expect(matches('?', 'a')).toBe(false)
    expect(matches('[ab]', 'a')).toBe(false)
    expect(matches('[ab]', '[ab]')).toBe(true)
    expect(matches('{a,b}', 'a')).toBe(false)
    expect(matches('{a,b}', '{a,b}')).toBe(true)
    expect(matches('!grep', 'read')).toBe(false)
    expect(matches('!grep', '!grep')).toBe(true)
    expect(matches('+(a)', 'a')).toBe(false)
    expect(matches('@(a|b)', '@(a|b)')).toBe(true)
    expect(matches('a\\b', 'a\\b')).toBe(true)
    expect(matches('a\\b', 'ab')).toBe(false)
    expect(matches('a\\*', 'a\\xyz')).toBe(true)
    expect(matches('Grep', 'grep')).toBe(false)
    expect(matches('名前_*', '名前_検索')).toBe(true)
    expect(matches('tool 😀', 'tool 😀')).toBe(true)
  })

  it('take every printable ASCII character literally, alone and next to a `*`', () => {
    for (let code = 0x20; code < 0x7f; code++) {
      const c = String.fromCharCode(code)
      if (c === '*') continue
      const other = c === 'Z' ? 'Y' : 'Z'
      expect([matches(`a${c}b`, `a${c}b`), matches(`a${c}b`, `a${other}b`), matches(`a${c}*`, `a${c}/x.y`), matches(`*${c}`, `x${other}`)]).toEqual([true, false, true, false])
    }
  })

  it('leave a tool transparent when it is excluded, even if included', () => {
    const isTracked = createToolFilter(resolveConfig({ include: ['read_*', 'grep'], exclude: ['read_secret*'] }))
    expect(['read_file', 'read_secrets', 'grep', 'write_file'].map(isTracked)).toEqual([true, false, true, false])
  })

  it('keep answering right past the bound of the per-name cache', () => {
    const isTracked = createToolFilter(resolveConfig({ exclude: ['noise_*'] }))
    for (let i = 0; i < 1500; i++) expect(isTracked(`noise_${i}`)).toBe(false)
    expect(isTracked('grep')).toBe(true)
    expect(isTracked('noise_0')).toBe(false)
    expect(isTracked('grep')).toBe(true)
  })

  it('apply to whatever tool is called, through a guard', () => {
    const guard = createRepeatToolGuard({ thresholds: [2], exclude: ['mcp_*'] })
    const agent = {}
    expect(guard.observe({ agent, name: 'grep', arguments: 'x' })).toBeUndefined()
    expect(guard.observe({ agent, name: 'mcp_browser/navigate', arguments: 'y' })).toBeUndefined()
    expect(guard.observe({ agent, name: 'grep', arguments: 'x' })?.source.summary).toBe('grep × 2')
  })
})
