import { useEffect, useState } from 'preact/hooks'

export type Theme = 'light' | 'dark'

const QUERY = '(prefers-color-scheme: dark)'

/** The theme to draw with: the one given (DevTools' own), else the system's, followed live. */
export function useTheme(given: Theme | undefined): Theme {
  const [system, setSystem] = useState<Theme>(() => systemTheme())
  useEffect(() => {
    if (given !== undefined || typeof matchMedia !== 'function') return
    const query = matchMedia(QUERY)
    const update = () => setSystem(query.matches ? 'dark' : 'light')
    query.addEventListener('change', update)
    return () => query.removeEventListener('change', update)
  }, [given])
  return given ?? system
}

function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia(QUERY).matches ? 'dark' : 'light'
}
