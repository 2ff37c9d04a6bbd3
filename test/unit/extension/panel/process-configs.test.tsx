// @vitest-environment happy-dom
// The Config tab's account of the Node processes attached (panel/components/process-configs.tsx):
// each with the config it said it runs, and nothing when none is attached.
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, RECOMMENDED_CONFIG, resolveConfig } from '../../../../engine/index.ts'
import { ConfigPanel } from '../../../../extension/src/panel/components/config-panel.tsx'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'

afterEach(cleanup)

const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }

describe('the Config tab and the Node processes', () => {
  it('shows the config each process attached runs', () => {
    const processes = [
      { label: 'server · pid 7 · node 20 · app.js', config: DEFAULT_CONFIG },
      { label: 'server · pid 9 · node 22', config: resolveConfig({ thresholds: [2, 4] }) },
    ]
    render(<ConfigPanel store={createPanelStore()} sink={sink} processes={processes} />)
    expect(screen.getAllByTestId('config-in-force-process').map((row) => row.textContent)).toEqual(['server · pid 7 · node 20 · app.jsthresholds 3, 5, 8', 'server · pid 9 · node 22thresholds 2, 4'])
  })

  it('says nothing of processes when none is attached', () => {
    render(<ConfigPanel store={createPanelStore()} sink={sink} processes={[]} />)
    expect(screen.queryByTestId('config-in-force-processes')).toBeNull()
    expect(screen.queryByText('In force in the Node processes')).toBeNull()
  })
})
