// `web-ext lint`, the linter the add-on store runs, on the Firefox build: no errors, and no
// warnings but the one docs/extension.md ("Firefox") explains (Preact's own innerHTML assignment, which serves
// `dangerouslySetInnerHTML`, a prop the panel never uses).
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { FIREFOX_EXTENSION_DIR } from '../support/firefox.ts'

interface Finding {
  readonly code: string
  readonly message: string
  readonly file?: string
  readonly line?: number
}

interface LintReport {
  readonly summary: { readonly errors: number; readonly warnings: number; readonly notices: number }
  readonly errors: readonly Finding[]
  readonly warnings: readonly Finding[]
}

const WEB_EXT = resolve(import.meta.dirname, '../../../node_modules/web-ext/bin/web-ext.js')

/** Preact's renderer: `dom.innerHTML = props.dangerouslySetInnerHTML.__html`. */
async function isPreactInnerHtml(finding: Finding): Promise<boolean> {
  // Vite names the chunk that holds Preact after one of the pages that share it.
  if (finding.code !== 'UNSAFE_VAR_ASSIGNMENT' || !finding.file?.startsWith('assets/') || finding.line === undefined) return false
  const line = (await readFile(resolve(FIREFOX_EXTENSION_DIR, finding.file), 'utf8')).split('\n')[finding.line - 1] ?? ''
  return /\.innerHTML = \w+\.__html\b/.test(line)
}

test('web-ext lint passes on the Firefox build with no warning but the one explained', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [WEB_EXT, 'lint', '--source-dir', FIREFOX_EXTENSION_DIR, '--output', 'json', '--no-config-discovery'], {
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
  const report = JSON.parse(stdout) as LintReport
  expect(report.errors).toEqual([])
  const unexplained = []
  for (const warning of report.warnings) if (!(await isPreactInnerHtml(warning))) unexplained.push(warning)
  expect(unexplained).toEqual([])
  expect(report.summary.notices).toBe(0)
})
