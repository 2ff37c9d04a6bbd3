// Where the scripted model answers: under the playground's own base URL, like any
// OpenAI-compatible server (`<base>/v1/chat/completions`), with one model id per scenario.

export const SCRIPTED_MODEL_PREFIX = 'scripted/'

export const API_ROOT = 'v1'

/** The scripted model's base URL for a page (or service worker scope) at `base`. */
export function scriptedBaseUrl(base: string): string {
  return new URL(API_ROOT, base).href
}

export function scriptedModelId(scenarioId: string): string {
  return `${SCRIPTED_MODEL_PREFIX}${scenarioId}`
}
