// The playground page: settings on the left, the conversation in the middle, the guard's
// panel on the right.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { ModelEndpoint } from '../agent/chat-client.ts'
import { Session } from '../agent/session.ts'
import { scriptedBaseUrl, scriptedModelId } from '../model/endpoint.ts'
import type { Scenario } from '../model/scenario.ts'
import { Controls, type RunSettings } from './controls.tsx'
import { EndpointForm, type ModelMode } from './endpoint-form.tsx'
import { loadEndpointSettings, saveEndpointSettings, type EndpointSettings, type SettingsStorage } from './endpoint-settings.ts'
import { FollowUp } from './follow-up.tsx'
import { portFor, type GuardChoice } from './guard-choice.ts'
import { DEFAULT_PRESET, presetConfig, type GuardPreset } from './guard-presets.ts'
import { GuardStatus } from './guard-status.tsx'
import { guardSwitchFor } from './guard-switch.ts'
import { PanelPane } from './panel-pane.tsx'
import { RunStatus, type RunState } from './run-status.tsx'
import { ensureScriptedModel } from './scripted-model.ts'
import { Transcript } from './transcript.tsx'
import { scenarioUrl, type UrlOptions } from './url-options.ts'
import { useChanges } from './use-changes.ts'
import { errorText } from '../../engine/safe-reading.ts'

const DEFAULT_STEP_LIMIT = 12

interface Props {
  choice: GuardChoice
  url: UrlOptions
  storage: SettingsStorage
}

function endpointError(endpoint: EndpointSettings): string | undefined {
  let url: URL
  try {
    url = new URL(endpoint.baseUrl)
  } catch {
    return `The base URL "${endpoint.baseUrl}" is not a URL (e.g. http://localhost:11434/v1).`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The base URL must start with http:// or https://.'
  if (endpoint.model === '') return 'Name the model to call (e.g. gpt-4o-mini, llama3.1).'
  return undefined
}

export function App({ choice, url, storage }: Props) {
  const [settings, setSettings] = useState<RunSettings>(() => ({
    scenario: url.scenario,
    prompt: url.scenario.prompt,
    guardOn: url.scenario.guardOn ?? true,
    preset: url.preset,
    allowDelete: url.scenario.allowDelete,
    stepLimit: DEFAULT_STEP_LIMIT,
  }))
  const [mode, setMode] = useState<ModelMode>('scripted')
  const [endpoint, setEndpoint] = useState(() => loadEndpointSettings(storage))
  const [session, setSession] = useState<Session>()
  const [state, setState] = useState<RunState>({ phase: 'idle' })
  const [faults, setFaults] = useState<readonly string[]>([])
  const port = useMemo(() => portFor(choice, (fault) => setFaults((all) => [...all, fault])), [choice])
  useChanges(useMemo(() => session && ((listener: () => void) => session.subscribe(listener)), [session]))
  useEffect(() => saveEndpointSettings(endpoint, storage), [endpoint, storage])

  const pickScenario = useCallback((scenario: Scenario) => {
    setSettings((s) => {
      history.replaceState(null, '', scenarioUrl(location.href, scenario.id, s.preset.id))
      return { ...s, scenario, prompt: scenario.prompt, allowDelete: scenario.allowDelete, guardOn: guardSwitchFor(scenario, s) }
    })
    setSession(undefined)
    setState({ phase: 'idle' })
  }, [])

  const pickPreset = useCallback((preset: GuardPreset) => {
    setSettings((s) => {
      history.replaceState(null, '', scenarioUrl(location.href, s.scenario.id, preset.id))
      return { ...s, preset }
    })
  }, [])

  // The options in force on the guard: the default preset leaves the guard's config alone (the
  // extension's follows its panel), any other is set on it before the run it is picked for, whether
  // the agent reports to the guard or not (zero-code mode reads the extension's config).
  const applied = useRef(DEFAULT_PRESET)
  const applyPreset = (preset: GuardPreset): string | undefined => {
    if (preset === applied.current) return undefined
    if (!choice.guard.configure) return 'This version of the extension cannot take guard options from the page.'
    try {
      choice.guard.configure(presetConfig(preset))
      applied.current = preset
      return undefined
    } catch (error) {
      return `The guard refused the ${preset.id} options: ${errorText(error)}`
    }
  }

  const drive = async (work: () => Promise<void>) => {
    setState({ phase: 'running' })
    try {
      await work()
      setState({ phase: 'done' })
    } catch (error) {
      setState({ phase: 'failed', message: errorText(error) })
    }
  }

  const run = async () => {
    const { scenario } = settings
    let target: ModelEndpoint
    if (mode === 'scripted') {
      setState({ phase: 'starting' })
      try {
        await ensureScriptedModel()
      } catch (error) {
        setState({ phase: 'failed', message: errorText(error) })
        return
      }
      target = { baseUrl: scriptedBaseUrl(document.baseURI), model: scriptedModelId(scenario.id) }
    } else {
      const problem = endpointError(endpoint)
      if (problem) return setState({ phase: 'failed', message: problem })
      target = { baseUrl: endpoint.baseUrl, model: endpoint.model, ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}) }
    }
    // Set with the switch off too: the extension's zero-code mode guards the requests with it then.
    const refused = applyPreset(settings.preset)
    if (refused) return setState({ phase: 'failed', message: refused })
    const next = new Session({
      endpoint: target,
      lead: scenario.lead,
      permissions: { allowDelete: settings.allowDelete },
      ...(settings.guardOn ? { guard: port } : {}),
      stepLimit: settings.stepLimit,
    })
    setFaults([])
    setSession(next)
    await drive(() => next.send(settings.prompt))
  }

  // Warm the scripted model up so the first run does not wait for it; a failure shows on Run.
  useEffect(() => void ensureScriptedModel().catch(() => {}), [])
  const autorun = useRef(url.autorun)
  useEffect(() => {
    if (!autorun.current) return
    autorun.current = false
    void run()
  }, [])

  const busy = state.phase === 'starting' || state.phase === 'running'
  return (
    <div class="page">
      <header class="top">
        <h1>
          Repeat Tool Guard <span class="muted">playground</span>
        </h1>
        <GuardStatus choice={choice} on={settings.guardOn} />
        <a href="./server-loop.html" data-testid="server-loop-link">
          agents whose loop runs on a server
        </a>
      </header>
      {url.unknownScenario && (
        <p class="error" role="alert">
          There is no scenario "{url.unknownScenario}"; showing {url.scenario.id}.
        </p>
      )}
      {url.unknownPreset && (
        <p class="error" role="alert">
          There are no guard options "{url.unknownPreset}"; using {url.preset.id}.
        </p>
      )}
      <main class="layout">
        <aside class="side">
          <Controls settings={settings} onChange={setSettings} onScenario={pickScenario} onPreset={pickPreset} running={busy} onRun={() => void run()} onStop={() => session?.stop()}>
            <EndpointForm mode={mode} onMode={setMode} endpoint={endpoint} onEndpoint={setEndpoint} scriptedModel={scriptedModelId(settings.scenario.id)} disabled={busy} />
          </Controls>
        </aside>
        <section class="center">
          <RunStatus state={state} session={session} />
          {faults.map((fault, i) => (
            <p class="error" role="alert" key={i}>
              Guard fault: {fault}
            </p>
          ))}
          <Transcript session={session} />
          {session && state.phase === 'done' && <FollowUp onSend={(text) => void drive(() => session.send(text))} />}
        </section>
        <aside class="inspector-side">
          <PanelPane choice={choice} />
        </aside>
      </main>
    </div>
  )
}
