// Where the agent's requests go: the scripted model of the picked scenario, or any
// OpenAI-compatible endpoint (a hosted API or a local server).
import type { EndpointSettings } from './endpoint-settings.ts'

export type ModelMode = 'scripted' | 'endpoint'

interface Props {
  mode: ModelMode
  onMode(mode: ModelMode): void
  endpoint: EndpointSettings
  onEndpoint(endpoint: EndpointSettings): void
  scriptedModel: string
  disabled: boolean
}

export function EndpointForm({ mode, onMode, endpoint, onEndpoint, scriptedModel, disabled }: Props) {
  const set = (patch: Partial<EndpointSettings>) => onEndpoint({ ...endpoint, ...patch })
  return (
    <fieldset class="group" disabled={disabled}>
      <legend>Model</legend>
      <label class="choice">
        <input type="radio" name="mode" data-testid="mode-scripted" checked={mode === 'scripted'} onChange={() => onMode('scripted')} />
        Scripted model <code>{scriptedModel}</code>, served by this page
      </label>
      <label class="choice">
        <input type="radio" name="mode" data-testid="mode-endpoint" checked={mode === 'endpoint'} onChange={() => onMode('endpoint')} />
        OpenAI-compatible endpoint
      </label>
      {mode === 'endpoint' && (
        <div class="endpoint">
          <label>
            Base URL
            <input type="url" data-testid="base-url" value={endpoint.baseUrl} placeholder="https://api.openai.com/v1" onInput={(e) => set({ baseUrl: e.currentTarget.value.trim() })} />
          </label>
          <label>
            Model
            <input type="text" data-testid="model" value={endpoint.model} placeholder="gpt-4o-mini" onInput={(e) => set({ model: e.currentTarget.value.trim() })} />
          </label>
          <label>
            API key
            <input type="password" data-testid="api-key" value={endpoint.apiKey} autocomplete="off" placeholder="none for most local servers" onInput={(e) => set({ apiKey: e.currentTarget.value })} />
          </label>
          <label class="choice">
            <input type="checkbox" data-testid="remember-key" checked={endpoint.rememberKey} onChange={(e) => set({ rememberKey: e.currentTarget.checked })} />
            Remember the key on this device (otherwise it is kept for this tab's session only)
          </label>
          <p class="muted">
            The request goes from this page to <code>{endpoint.baseUrl || '…'}/chat/completions</code>: the server must allow this origin (CORS). The scenario's system prompt, prompt, tools and
            permissions still apply.
          </p>
        </div>
      )}
    </fieldset>
  )
}
