import { render } from 'preact'
import { App } from './app.tsx'
import type { SettingsStorage } from './endpoint-settings.ts'
import { chooseGuard } from './guard-choice.ts'
import { readUrlOptions } from './url-options.ts'

/** Storage that refuses every access, for pages where the browser disallows it. */
function unavailable(): Storage {
  const refuse = () => {
    throw new Error('storage unavailable')
  }
  return { length: 0, clear: refuse, getItem: refuse, key: refuse, removeItem: refuse, setItem: refuse }
}

function storage(): SettingsStorage {
  const get = (name: 'localStorage' | 'sessionStorage') => {
    try {
      return window[name]
    } catch {
      return unavailable()
    }
  }
  return { local: get('localStorage'), session: get('sessionStorage') }
}

render(<App choice={chooseGuard()} url={readUrlOptions(location.search)} storage={storage()} />, document.getElementById('app')!)
