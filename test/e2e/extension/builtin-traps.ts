// A page that replaces the built-ins' methods after load with traps: each trap calls the original
// (the page keeps working) and, while armed, notes a call whose caller is the page script's hook
// layer (page.js outside its on-demand half, the analysis: docs/security.md, "A page that replaces
// built-ins"), or that has no caller at all (a job the browser runs for a promise someone
// resolved). The page's own calls, Playwright's and those of page code the extension calls (a
// tool's execute) are not noted: their caller is theirs. `installBuiltinTraps` runs inside the
// page, so it uses nothing from outside itself but the trap core it is handed
// (test/support/builtin-trap-core.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { COMMON_INSTANCE_CHECKS, COMMON_OWNERS, GLOBAL_CONSTRUCTORS, trapBuiltins, type TrapPlan } from '../../support/builtin-trap-core.ts'
import { EXTENSION_DIR } from '../support/browser.ts'

/** What the page keeps on `window.builtinTraps`. */
export interface BuiltinTraps {
  armed: boolean
  /** Each noted call: the built-in, then the frame it was called from. */
  readonly hits: string[]
  /** How many trapped built-ins there are (every call of one of them is checked). */
  count: number
}

export type TrapsWindow = { builtinTraps: BuiltinTraps }

/** Where the built page script is, and the stretch of it that is its on-demand half (lines and columns from 1, as stacks give them). */
export interface PageScript {
  /** `chrome-extension://<id>/page.js:` */
  readonly prefix: string
  readonly onDemand: { readonly from: readonly [number, number]; readonly to: readonly [number, number] }
}

/** The built page.js's on-demand half: the function the build wraps it in. */
export function pageScript(extensionId: string): PageScript {
  const text = readFileSync(join(EXTENSION_DIR, 'page.js'), 'utf8')
  const start = text.indexOf('function runOnDemandHalf(')
  const end = /\}var [\w$]+;var onDemand=/.exec(text.slice(start))
  if (start === -1 || end === null) throw new Error('page.js has no on-demand half where the build puts it')
  const at = (offset: number): [number, number] => {
    const before = text.slice(0, offset).split('\n')
    return [before.length, before.at(-1)!.length + 1]
  }
  return { prefix: `chrome-extension://${extensionId}/page.js:`, onDemand: { from: at(start), to: at(start + end.index + 1) } }
}

/** What the page traps: what the unit tests trap, and more of what a page has. */
const PLAN = {
  owners: [...COMMON_OWNERS, 'StringIterator', 'Number.prototype', 'Symbol.prototype', 'WeakSet.prototype', 'Error.prototype'],
  withInstanceChecks: [...COMMON_INSTANCE_CHECKS, 'Request', 'Headers', 'Response', 'XMLHttpRequest', 'Worker'],
  globals: GLOBAL_CONSTRUCTORS,
}

/** The script that traps the page's built-ins, for `page.evaluate`: the installer and the core it uses, as text. */
export function builtinTrapsScript(script: PageScript): string {
  return `(${installBuiltinTraps.toString()})(${JSON.stringify(script)}, ${JSON.stringify(PLAN)}, ${trapBuiltins.toString()})`
}

/**
 * Replaces the built-ins (run inside the page): every method and getter of the usual owners, the
 * `Symbol.hasInstance` of the constructors the hooks meet (what `instanceof` reads), and the global
 * constructors themselves, with wrappers that note calls and `new`.
 */
function installBuiltinTraps({ prefix, onDemand }: PageScript, plan: Omit<TrapPlan, 'global' | 'spared'>, trap: typeof trapBuiltins): void {
  const { apply, defineProperty } = Reflect
  const NativeError = Error
  const NativeNumber = Number
  const stringIndexOf = String.prototype.indexOf
  const stringSlice = String.prototype.slice
  const stringSplit = String.prototype.split
  const traps: BuiltinTraps = { armed: false, hits: [], count: 0 }

  /** Whether a frame is the hook layer's: in page.js, outside its on-demand half. */
  function isHookLayer(frame: string): boolean {
    const at = apply(stringIndexOf, frame, [prefix]) as number
    if (at === -1) return false
    const parts = apply(stringSplit, apply(stringSlice, frame, [at + prefix.length]), [':']) as string[]
    const position = [NativeNumber(parts[0]), NativeNumber((apply(stringSplit, parts[1], [')']) as string[])[0])]
    const after = (a: readonly number[], b: readonly number[]) => a[0]! > b[0]! || (a[0] === b[0] && a[1]! >= b[1]!)
    return !(after(position, onDemand.from) && after(onDemand.to, position))
  }

  /** The frames under the trap's own: the caller first. */
  function callers(): string[] {
    const lines = apply(stringSplit, `${new NativeError().stack}`, ['\n']) as string[]
    // "Error", this function, `note`, the trap, then the trap's caller.
    const out: string[] = []
    for (let i = 4; i < lines.length && i < 7; i++) out[out.length] = lines[i]!
    return out
  }

  /** Notes a call of `name` made by the hook layer (called by a trap, so the frames line up). */
  function note(name: string): void {
    if (!traps.armed) return
    const frames = callers()
    if (frames.length === 0 || isHookLayer(frames[0]!)) traps.hits[traps.hits.length] = `${name} <- ${frames.length === 0 ? 'a job' : frames[0]}`
  }

  traps.count = trap({ ...plan, global: window, spared: [] }, note, (owner, key, descriptor) => void defineProperty(owner, key, descriptor))
  ;(window as unknown as TrapsWindow).builtinTraps = traps
}
