// No source file over 12 KB (CONTRIBUTING.md, "Rules for the code"): a file past that holds more
// than one job, or more than one reader keeps in mind at once. Every source file of the tree git
// knows (tracked, or new and not ignored), wherever it sits: a new folder is held to it too.
import { execFileSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')
const LIMIT = 12 * 1024
const SOURCE = /\.(ts|tsx|js|mjs|css|html)$/

/** Every source file git knows, with its size in bytes. */
function sourceFiles(): { file: string; bytes: number }[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
  return [...new Set(listed.split('\0'))].filter((file) => SOURCE.test(file) && existsSync(join(ROOT, file))).map((file) => ({ file, bytes: statSync(join(ROOT, file)).size }))
}

describe('file sizes', () => {
  it('has no source file over 12 KB', () => {
    const files = sourceFiles()
    expect(files.length).toBeGreaterThan(100)
    const over = files.filter(({ bytes }) => bytes > LIMIT).map(({ file, bytes }) => `${file}: ${bytes} bytes, over ${LIMIT}`)
    expect(over).toEqual([])
  })
})
