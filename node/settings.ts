// What the environment asks of a registered process (docs/node.md, "Settings"): the mode, from
// `REPEAT_TOOL_GUARD`, and the config, from `REPEAT_TOOL_GUARD_CONFIG` (the JSON itself, or the
// path of a file holding it), validated as the page API validates one. A bad value is refused here,
// at start-up, with the reason: the process stops before its first request, never guarded by a
// config the user did not mean.
import { DEFAULT_CONFIG, type GuardConfig, resolveConfig } from '../engine/index.ts'
import { errorText } from '../engine/safe-reading.ts'

/** `guard`: reminders inserted; `observe`: analysed, sent as made; `off`: fetch left as it is. */
export const NODE_MODES = ['guard', 'observe', 'off'] as const
export type NodeMode = (typeof NODE_MODES)[number]

export interface NodeSettings {
  readonly mode: NodeMode
  readonly config: GuardConfig
  /** Where the config came from: `default`, `inline JSON`, or the file's path. */
  readonly source: string
}

export type SettingsResult = { readonly ok: true; readonly settings: NodeSettings } | { readonly ok: false; readonly reason: string }

/** Reads a config file's text; throws when it cannot. */
export type ReadText = (path: string) => string

const refuse = (reason: string): SettingsResult => ({ ok: false, reason })

export function readSettings(env: Readonly<Record<string, string | undefined>>, readText: ReadText): SettingsResult {
  const asked = env.REPEAT_TOOL_GUARD ?? ''
  // Importing the entry is the user's opt-in: guard unless told otherwise.
  const mode = asked === '' ? 'guard' : NODE_MODES.find((known) => known === asked)
  if (mode === undefined) return refuse(`REPEAT_TOOL_GUARD must be one of ${NODE_MODES.join(', ')}, got ${JSON.stringify(asked)}`)

  const given = (env.REPEAT_TOOL_GUARD_CONFIG ?? '').trim()
  if (given === '') return { ok: true, settings: { mode, config: DEFAULT_CONFIG, source: 'default' } }
  // JSON opens with an object or a list (a list is refused as a config, with that reason); anything else is a path.
  const inline = given.startsWith('{') || given.startsWith('[')
  let text = given
  if (!inline) {
    try {
      text = readText(given)
    } catch (error) {
      return refuse(`REPEAT_TOOL_GUARD_CONFIG: cannot read ${given}: ${errorText(error)}`)
    }
  }
  const source = inline ? 'inline JSON' : given
  let input: unknown
  try {
    input = JSON.parse(text)
  } catch (error) {
    return refuse(`REPEAT_TOOL_GUARD_CONFIG (${source}) is not JSON: ${errorText(error)}`)
  }
  try {
    return { ok: true, settings: { mode, config: resolveConfig(input), source } }
  } catch (error) {
    return refuse(`REPEAT_TOOL_GUARD_CONFIG (${source}) is not a valid config: ${errorText(error)}`)
  }
}

/**
 * The one line a registered process writes at start-up: its mode, its config in short, and where
 * the inspector listens (`bridge`, as register.ts found it).
 */
export function startLine({ mode, config, source }: NodeSettings, bridge: string): string {
  const changed = (Object.keys(config) as (keyof GuardConfig)[]).filter((key) => key !== 'thresholds' && JSON.stringify(config[key]) !== JSON.stringify(DEFAULT_CONFIG[key]))
  const summary = `thresholds ${config.thresholds.join('/')}${changed.length > 0 ? `, ${changed.join(', ')} set` : ''} (${source === 'default' ? 'default config' : `config: ${source}`})`
  const what = mode === 'off' ? 'off, fetch left as it is' : `${mode} mode, ${summary}`
  return `repeat-tool-guard: ${what}; ${bridge} (pid ${process.pid})`
}
