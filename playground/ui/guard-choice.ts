// Which guard the page's agent uses: the extension's, when it is installed on this page (it
// defines `window.__REPEAT_TOOL_GUARD__` before any page script runs), else the playground's own
// engine with the recommended config. Never both: one guard, so each reminder appears once.
import { createRepeatToolGuard, RECOMMENDED_CONFIG, type RepeatToolGuard } from '../../engine/index.ts'
import { findExtensionGuard, guardPort, type GuardPort, type PageGuard } from '../agent/guard-port.ts'

export type GuardChoice = { readonly via: 'extension'; readonly guard: PageGuard } | { readonly via: 'playground'; readonly guard: RepeatToolGuard }

export function chooseGuard(scope: object = globalThis): GuardChoice {
  const extension = findExtensionGuard(scope)
  return extension ? { via: 'extension', guard: extension } : { via: 'playground', guard: createRepeatToolGuard(RECOMMENDED_CONFIG) }
}

export function portFor(choice: GuardChoice, onFault: (message: string) => void): GuardPort {
  return guardPort(choice.guard, choice.via, onFault)
}

/** The extension's version, as its guard reports it. */
export function extensionVersion(guard: PageGuard): string | undefined {
  return typeof guard.version === 'number' || typeof guard.version === 'string' ? String(guard.version) : undefined
}
