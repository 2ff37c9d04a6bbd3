import type { Theme } from '../components/theme.ts'

/** DevTools' own theme (light is 'default' in Chrome, 'light' in Firefox), or undefined outside DevTools. */
export function devtoolsTheme(): Theme | undefined {
  const name: string | undefined = globalThis.chrome?.devtools?.panels?.themeName
  if (name === 'dark') return 'dark'
  if (name === 'default' || name === 'light') return 'light'
  return undefined
}
