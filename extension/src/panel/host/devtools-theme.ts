import type { Theme } from '../components/theme.ts'

// Light is 'default' in Chrome, 'light' in Firefox.
const fromThemeName = (name: unknown): Theme | undefined => (name === 'dark' ? 'dark' : name === 'default' || name === 'light' ? 'light' : undefined)

/** DevTools' own theme, or undefined outside DevTools. */
export function devtoolsTheme(): Theme | undefined {
  return fromThemeName(globalThis.chrome?.devtools?.panels?.themeName)
}

/**
 * Calls `listener` with DevTools' theme each time the user switches it (themeName is only read
 * once, when the panel loads). Outside DevTools, or in a Chrome before 99, it never calls.
 */
export function followDevtoolsTheme(listener: (theme: Theme) => void): void {
  globalThis.chrome?.devtools?.panels?.setThemeChangeHandler?.((name) => {
    const theme = fromThemeName(name)
    if (theme !== undefined) listener(theme)
  })
}
