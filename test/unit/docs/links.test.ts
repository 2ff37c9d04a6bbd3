// The documents stay walkable: every link between them reaches a file and a heading that exist,
// every picture is there, every `npm run` they name is a script, the README stays short, and every
// code comment that cites a document section (`docs/zero-code.md, "Reach"`) names one that exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
const CODE_FOLDERS = ['engine', 'node', 'extension', 'playground', 'scripts', 'bench', 'test']

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

/** The document's text without its fenced code blocks, where a `[x](y)` is code, not a link. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '')

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-')

function headings(file: string): string[] {
  return [...prose(read(file)).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]!)
}

/** Every relative link and picture of `file`: its target file (from the root) and anchor. */
function links(file: string): { link: string; target: string; anchor: string | undefined }[] {
  return [...prose(read(file)).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((link) => !/^[a-z]+:/i.test(link))
    .map((link) => {
      const [path, anchor] = link.split('#') as [string, string | undefined]
      return { link, target: path === '' ? file : relative(ROOT, resolve(ROOT, dirname(file), path)), anchor }
    })
}

function codeFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs|js|css|html)$/.test(e.name) && !e.parentPath.includes('node_modules'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
}

/**
 * The text of `file`'s comments, a citation that runs over two comment lines joined into one: the
 * `//` comments (also after code) and block comments (also in CSS and in the scripts of
 * a page), every line of them. What is code is left out: a string naming a file is no citation.
 */
function comments(file: string): string {
  const kept: string[] = []
  let inBlock = false
  for (const line of read(file).split('\n')) {
    let rest = line
    if (!inBlock) {
      const open = line.search(BLOCK_OPENS)
      const slashes = line.search(LINE_COMMENT)
      if (slashes >= 0 && (open < 0 || slashes < open)) {
        kept.push(line.slice(slashes + 3))
        continue
      }
      if (open < 0) {
        kept.push('')
        continue
      }
      rest = line.slice(open + 2)
      inBlock = true
    }
    const close = rest.indexOf('*/')
    if (close >= 0) inBlock = false
    kept.push((close >= 0 ? rest.slice(0, close) : rest).replace(/^\s*\*?\s?/, ''))
  }
  return kept.join('\n').replace(/\n(?=\S)/g, ' ')
}
/** Where a comment opens, but not inside a URL (`https://`) or right after a quote, where it is a string's. */
const BLOCK_OPENS = /(?<![:'"`\w])\/\*/
const LINE_COMMENT = /(?<![:'"`\w])\/\/ /

describe('the documents', () => {
  it.each(DOCUMENTS)('%s: every link reaches a file, and a heading where it names one', (file) => {
    const broken = links(file).flatMap(({ link, target, anchor }) => {
      if (!existsSync(join(ROOT, target))) return [`${link}: no file ${target}`]
      if (anchor === undefined || !target.endsWith('.md')) return []
      return headings(target).map(anchorOf).includes(anchor) ? [] : [`${link}: no heading #${anchor} in ${target}`]
    })
    expect(broken).toEqual([])
  })

  it.each(DOCUMENTS)('%s: every `npm run` it names is a script of package.json', (file) => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts)
    const named = [...read(file).matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!)
    expect(named.filter((name) => !scripts.includes(name))).toEqual([])
  })

  it('keeps the README short', () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(200)
  })

  it('has every section a code comment cites', () => {
    const cited = CODE_FOLDERS.flatMap(codeFiles).flatMap((file) => [...comments(file).matchAll(/(?<![\w/.-])([\w/.-]+\.md),? \(?"([^"]+)"/g)].map((m) => ({ file, doc: m[1]!, section: m[2]! })))
    expect(cited.length).toBeGreaterThan(0)
    const missing = cited.filter(({ doc, section }) => !existsSync(join(ROOT, doc)) || !headings(doc).includes(section))
    expect(missing).toEqual([])
  })

  it('has every document a code comment names, at the path it gives from the root', () => {
    const named = CODE_FOLDERS.flatMap(codeFiles).flatMap((file) => [...comments(file).matchAll(/(?<![\w/.-])([\w/.-]+\.md)\b/g)].map((m) => `${file}: ${m[1]!}`))
    expect(named.length).toBeGreaterThan(0)
    expect(named.filter((entry) => !existsSync(join(ROOT, entry.slice(entry.indexOf(': ') + 2))))).toEqual([])
  })
})
