// The project every run starts from: a small date-helper library with one bug (formatDate does
// not pad), a build folder to clean, and TODOs to find. Scenarios and tests refer to these files.

export const SAMPLE_FILES: Readonly<Record<string, string>> = {
  'README.md': '# tiny-dates\n\nSmall, dependency-free date helpers.\n\n- `formatDate(date)` -> `YYYY-MM-DD`\n- `parseDate(text)` -> `Date`\n',
  'package.json': '{\n  "name": "tiny-dates",\n  "version": "1.4.0",\n  "type": "module",\n  "scripts": { "test": "vitest run" }\n}\n',
  'src/index.ts': "export { formatDate } from './format.ts'\nexport { parseDate } from './parse.ts'\n",
  'src/format.ts': '// TODO: pad month and day to two digits\nexport function formatDate(date: Date): string {\n  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`\n}\n',
  'src/parse.ts':
    "// TODO: reject dates that do not exist (2024-02-30)\nexport function parseDate(text: string): Date {\n  const [y, m, d] = text.split('-').map(Number)\n  return new Date(y, m - 1, d)\n}\n",
  'src/report.ts': "import { formatDate } from './format.ts'\n\nexport const reportTitle = (day: Date) => `Report for ${formatDate(day)}`\n",
  'test/format.test.ts':
    "import { expect, test } from 'vitest'\nimport { formatDate } from '../src/format.ts'\n\ntest('formatDate pads month and day', () => {\n  expect(formatDate(new Date(2024, 2, 7))).toBe('2024-03-07')\n})\n\ntest('formatDate keeps the year', () => {\n  expect(formatDate(new Date(1999, 11, 31)).startsWith('1999-')).toBe(true)\n})\n",
  'build/index.js': "export{formatDate}from'./format.js';export{parseDate}from'./parse.js'\n",
  'build/format.js': 'export function formatDate(d){return `${d.getFullYear()}-${d.getMonth()+1}-${d.getDate()}`}\n',
}

/** The unit suite `run_tests` runs: each case passes when its file satisfies the check. */
interface UnitCase {
  readonly name: string
  readonly file: string
  readonly passes: (source: string) => boolean
  readonly failure: string
}

export const UNIT_CASES: readonly UnitCase[] = [
  {
    name: 'test/format.test.ts > formatDate pads month and day',
    file: 'src/format.ts',
    passes: (source) => source.includes("padStart(2, '0')"),
    failure: "AssertionError: expected '2024-3-7' to be '2024-03-07'",
  },
  {
    name: 'test/format.test.ts > formatDate keeps the year',
    file: 'src/format.ts',
    passes: (source) => source.includes('getFullYear()'),
    failure: 'AssertionError: expected false to be true (the year is missing)',
  },
]

/** The jobs of the integration pipeline, one finishing per check (see run_tests). */
export const INTEGRATION_JOBS: readonly string[] = ['lint', 'unit', 'build', 'e2e']
