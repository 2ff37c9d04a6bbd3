// Writes bench/RESULTS.md at the end of every `npm run bench` (vitest.bench.config.ts names this
// reporter): the machine, the browser and Node versions, the date, and the table each bench file
// kept (results.ts), with every ratio, target, interval and whether the target was met. The file is
// the only place figures are written down: documents link to it (docs/development.md,
// "Benchmarks"). A run of fewer bench files, or one that failed, writes it too, marked partial.
import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { cpus, loadavg, release, totalmem } from 'node:os'
import { relative, resolve } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { chromiumPath } from '../../test/e2e/support/browser.ts'
import { firefoxPath } from '../../test/e2e/support/firefox.ts'
import type { ResultRow, ResultTable } from './results.ts'

const COLUMNS = ['case', 'baseline', 'measured', 'ratio', 'interval', 'target', 'met'] as const satisfies readonly (keyof ResultRow)[]

/** What `binary --version` prints, or why there is nothing to print. */
function versionOf(path: () => string): string {
  try {
    const run = spawnSync(path(), ['--version'], { encoding: 'utf8', timeout: 30_000 })
    return run.stdout.trim().split('\n')[0] || `no version printed (exit ${run.status})`
  } catch (error) {
    return `not found (${error instanceof Error ? error.message : String(error)})`
  }
}

const cell = (text: string) => text.trim().replace(/\|/g, '\\|')
const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`

function machine(): string[] {
  const cores = cpus()
  return [
    line(['', '']),
    line(['---', '---']),
    line(['date', new Date().toISOString()]),
    line(['CPU', `${cores[0]?.model ?? 'unknown'}, ${cores.length} cores`]),
    line(['memory', `${(totalmem() / 1024 ** 3).toFixed(1)} GB`]),
    // Other work on the machine slows one side of a ratio more than the other: say how busy it was.
    line([
      'load average at the end (1, 5, 15 min)',
      loadavg()
        .map((load) => load.toFixed(2))
        .join(', '),
    ]),
    line(['system', `${process.platform} ${release()} ${process.arch}`]),
    line(['Node', process.version]),
    line(['Chromium', versionOf(chromiumPath)]),
    line(['Firefox', versionOf(firefoxPath)]),
  ]
}

/** A line saying the machine had more work than cores at the end of the run; none when it did not. */
function busy(): string[] {
  const [load] = loadavg()
  const cores = cpus().length
  return load !== undefined && load > cores ? [`The machine was busy: a load average of ${load.toFixed(2)} on ${cores} cores at the end of the run.`, ''] : []
}

/** Why this run does not stand for a full `npm run bench`; empty when it does. */
function partialBecause(ran: readonly TestModule[], all: readonly string[], reason: TestRunEndReason): string[] {
  const why: string[] = []
  const names = new Set(ran.map((m) => m.moduleId))
  const missing = all.filter((file) => !names.has(file))
  if (missing.length > 0) why.push(`${ran.length} of ${all.length} bench files ran`)
  const failed = ran.filter((m) => m.state() !== 'passed')
  if (failed.length > 0) why.push(`${failed.length} did not pass (${failed.map((m) => m.relativeModuleId).join(', ')})`)
  const skipped = ran.flatMap((m) => [...m.children.allTests('skipped')])
  if (skipped.length > 0) why.push(`${skipped.length} of their benches were left out`)
  if (reason !== 'passed' && failed.length === 0) why.push(`the run ended ${reason}`)
  return why
}

function table(module: TestModule, root: string): string[] {
  const kept: readonly ResultTable[] = module.meta().benchResults ?? []
  const file = relative(root, module.moduleId)
  if (kept.length === 0) return [`## ${file}`, '', `No results: the file ended ${module.state()} before it kept its table.`, '']
  return kept.flatMap(({ title, rows }) => [
    `## ${title}`,
    '',
    `From \`${file}\`.`,
    '',
    line(COLUMNS),
    line(COLUMNS.map(() => '---')),
    ...rows.map((row) => line(COLUMNS.map((column) => row[column]))),
    '',
  ])
}

export default class ResultsReporter implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): Promise<void> {
    if (!this.vitest) return
    const root = this.vitest.config.root
    const all = [...new Set((await this.vitest.globTestSpecifications()).map((spec) => spec.moduleId))].sort()
    const ran = [...modules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))
    const partial = partialBecause(ran, all, reason)
    const rows = ran.flatMap((m) => (m.meta().benchResults ?? []).flatMap((t) => t.rows)).filter((r) => r.target !== '-')
    const missed = rows.filter((r) => r.met !== 'yes')
    const text = [
      '# Benchmark results',
      '',
      'Written by `npm run bench` at the end of the run (bench/support/results-reporter.ts): edit the',
      'benches, never this file. Each ratio is measured against a baseline timed in the same run; what',
      'each bench measures, and why, is in [docs/development.md](../docs/development.md#benchmarks).',
      '',
      partial.length > 0
        ? `**Partial run: ${partial.join('; ')}.** These are not the figures of a full \`npm run bench\`, which writes this file again.`
        : 'A full `npm run bench`: every bench file ran and passed.',
      '',
      `Targets: ${rows.length - missed.length} of ${rows.length} met${missed.length > 0 ? `; missed: ${missed.map((r) => r.case.trim()).join('; ')}` : ''}.`,
      '',
      ...busy(),
      ...machine(),
      '',
      ...ran.flatMap((m) => table(m, root)),
    ].join('\n')
    const file = resolve(root, 'bench/RESULTS.md')
    await writeFile(file, text)
    console.log(`\nbench results written to ${relative(process.cwd(), file)}${partial.length > 0 ? ' (partial run)' : ''}`)
  }
}
