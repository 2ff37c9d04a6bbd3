// The in-memory project the playground's tools work on: a flat map of file paths to contents,
// with directories implied by the paths (as in git).

export class ProjectPathError extends Error {}

/** `./src//a.ts` -> `src/a.ts`; `.` and `` -> `` (the root). Paths never leave the project. */
export function normalizePath(path: string): string {
  const parts: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') throw new ProjectPathError(`${path}: paths cannot leave the project`)
    parts.push(part)
  }
  return parts.join('/')
}

export class MemoryProject {
  private readonly files: Map<string, string>

  constructor(files: Readonly<Record<string, string>>) {
    this.files = new Map(Object.entries(files).map(([path, text]) => [normalizePath(path), text]))
  }

  read(path: string): string | undefined {
    return this.files.get(normalizePath(path))
  }

  isDirectory(path: string): boolean {
    const dir = normalizePath(path)
    if (dir === '') return true
    for (const file of this.files.keys()) if (file.startsWith(`${dir}/`)) return true
    return false
  }

  /** The direct children of a directory, sorted, directories with a trailing `/`; undefined if none. */
  list(path: string): string[] | undefined {
    const dir = normalizePath(path)
    if (!this.isDirectory(dir)) return undefined
    const prefix = dir === '' ? '' : `${dir}/`
    const entries = new Set<string>()
    for (const file of this.files.keys()) {
      if (!file.startsWith(prefix)) continue
      const rest = file.slice(prefix.length)
      const slash = rest.indexOf('/')
      entries.add(slash === -1 ? rest : `${rest.slice(0, slash)}/`)
    }
    return [...entries].sort()
  }

  /** Every file at or under `path`, sorted. */
  filesUnder(path: string): string[] {
    const dir = normalizePath(path)
    return [...this.files.keys()].filter((file) => dir === '' || file === dir || file.startsWith(`${dir}/`)).sort()
  }

  write(path: string, content: string): void {
    const file = normalizePath(path)
    if (file === '') throw new ProjectPathError('write_file needs a file path')
    if (this.isDirectory(file)) throw new ProjectPathError(`${file} is a directory`)
    this.files.set(file, content)
  }

  /** Deletes a file or a whole directory; returns how many files went. */
  remove(path: string): number {
    const doomed = this.filesUnder(path)
    for (const file of doomed) this.files.delete(file)
    return doomed.length
  }
}
