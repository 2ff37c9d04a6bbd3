// The run's settings: scenario, prompt, guard switch and options, permission and step limit, and Run/Stop.
import type { ComponentChildren } from 'preact'
import { GUARD_PRESETS, type GuardPreset } from './guard-presets.ts'
import { PresetLinks } from './preset-links.tsx'
import { SCENARIOS } from '../model/scenarios/index.ts'
import type { Scenario } from '../model/scenario.ts'

export interface RunSettings {
  readonly scenario: Scenario
  readonly prompt: string
  readonly guardOn: boolean
  readonly preset: GuardPreset
  readonly allowDelete: boolean
  readonly stepLimit: number
}

interface Props {
  settings: RunSettings
  onChange(settings: RunSettings): void
  onScenario(scenario: Scenario): void
  onPreset(preset: GuardPreset): void
  running: boolean
  onRun(): void
  onStop(): void
  /** The model settings, between the prompt and the guard. */
  children: ComponentChildren
}

const MAX_STEPS = 50

export function Controls({ settings, onChange, onScenario, onPreset, running, onRun, onStop, children }: Props) {
  const set = (patch: Partial<RunSettings>) => onChange({ ...settings, ...patch })
  return (
    <form
      class="controls"
      onSubmit={(e) => {
        e.preventDefault()
        onRun()
      }}
    >
      <fieldset class="group" disabled={running}>
        <legend>Scenario</legend>
        <select
          data-testid="scenario"
          value={settings.scenario.id}
          onChange={(e) => {
            const next = SCENARIOS.find((s) => s.id === e.currentTarget.value)
            if (next) onScenario(next)
          }}
        >
          {SCENARIOS.map((s) => (
            <option value={s.id} key={s.id}>
              {s.id} — {s.title}
            </option>
          ))}
        </select>
        <p class="muted" data-testid="scenario-description">
          {settings.scenario.description}
        </p>
        <PresetLinks scenario={settings.scenario} />
        <label>
          Prompt
          <textarea data-testid="prompt" rows={2} value={settings.prompt} onInput={(e) => set({ prompt: e.currentTarget.value })} />
        </label>
      </fieldset>
      {children}
      <fieldset class="group" disabled={running}>
        <legend>Agent</legend>
        <label class="choice switch">
          <input type="checkbox" role="switch" data-testid="guard-switch" checked={settings.guardOn} onChange={(e) => set({ guardOn: e.currentTarget.checked })} />
          Repeat tool guard {settings.guardOn ? 'on' : 'off'}
        </label>
        <label class="inline">
          Guard options
          <select
            data-testid="preset"
            value={settings.preset.id}
            onChange={(e) => {
              const next = GUARD_PRESETS.find((p) => p.id === e.currentTarget.value)
              if (next) onPreset(next)
            }}
          >
            {GUARD_PRESETS.map((p) => (
              <option value={p.id} key={p.id}>
                {p.id} — {p.title}
              </option>
            ))}
          </select>
        </label>
        <label class="choice">
          <input type="checkbox" data-testid="allow-delete" checked={settings.allowDelete} onChange={(e) => set({ allowDelete: e.currentTarget.checked })} />
          Allow <code>delete_path</code> (denied calls still reach the guard)
        </label>
        <label class="inline">
          Step limit
          <input
            type="number"
            data-testid="step-limit"
            min={1}
            max={MAX_STEPS}
            value={settings.stepLimit}
            onInput={(e) => {
              const value = e.currentTarget.valueAsNumber
              if (Number.isInteger(value) && value >= 1 && value <= MAX_STEPS) set({ stepLimit: value })
            }}
          />
        </label>
      </fieldset>
      <div class="actions">
        <button type="submit" class="primary" data-testid="run" disabled={running}>
          Run
        </button>
        <button type="button" data-testid="stop" disabled={!running} onClick={onStop}>
          Stop
        </button>
      </div>
    </form>
  )
}
