import './common-controls.css'
import './bridge-ports-editor.css'
import { useEffect, useId, useState } from 'preact/hooks'
import { errorText } from '../../../../engine/safe-reading.ts'
import type { BridgePortsSetting } from '../../ui/bridge-ports-setting.ts'

/**
 * The Node processes' bridge ports the user adds (docs/node-bridge.md, "In the panel"): kept in
 * extension storage, attached by every panel and the popup for pages served from localhost, next
 * to the default port. A port typed wrong is refused with the reason, and nothing is stored.
 */
export function BridgePortsEditor({ setting }: { setting: BridgePortsSetting }) {
  const [ports, setPorts] = useState(() => setting.ports())
  const [typed, setTyped] = useState('')
  const [error, setError] = useState<string | undefined>(undefined)
  const id = useId()
  useEffect(() => setting.subscribe(() => setPorts(setting.ports())), [setting])

  async function add(event: Event) {
    event.preventDefault()
    try {
      await setting.add(typed)
      setTyped('')
      setError(undefined)
    } catch (failure) {
      setError(errorText(failure))
    }
  }

  return (
    <form class="rtg-bridge-ports" data-testid="bridge-ports" onSubmit={add}>
      <label class="rtg-label" for={id}>
        Bridge port of a Node process
      </label>
      <div class="rtg-buttons">
        <input
          id={id}
          class="mono"
          data-testid="bridge-port-input"
          inputMode="numeric"
          size={8}
          value={typed}
          aria-invalid={error !== undefined}
          onInput={(event) => {
            setTyped(event.currentTarget.value)
            setError(undefined)
          }}
        />
        <button type="submit" class="rtg-button" data-testid="bridge-port-add">
          Add
        </button>
      </div>
      {error !== undefined && (
        <p class="rtg-error" role="alert" data-testid="bridge-port-error">
          {error}
        </p>
      )}
      <ul class="rtg-bridge-port-list">
        {ports.map((port) => (
          <li key={port} data-testid="bridge-port">
            <span class="mono">{port}</span>{' '}
            <button type="button" class="rtg-button" data-testid="bridge-port-remove" aria-label={`Remove port ${port}`} onClick={() => void setting.remove(port)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <p class="rtg-note">
        For pages served from localhost, the panel and the toolbar popup attach to the process on port 8730 and to these. A process prints its port on its start-up line (REPEAT_TOOL_GUARD_PORT sets
        it).
      </p>
    </form>
  )
}
