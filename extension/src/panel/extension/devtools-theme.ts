import type { Theme } from '../components/theme.ts'

/** DevTools' own theme ('default' is light), or undefined outside DevTools. */
export function devtoolsTheme(): Theme | undefined {
  const name = globalThis.chrome?.devtools?.panels?.themeName
  if (name === 'dark') return 'dark'
  if (name === 'default') return 'light'
  return undefined
}
