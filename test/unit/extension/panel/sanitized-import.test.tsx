// @vitest-environment happy-dom
// A sanitized session opened in the panel: the rows show their stand-ins, the import notice and
// What-if say what was replaced and how the replay compares the calls.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact'
import { afterEach, expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { Panel } from '../../../../extension/src/panel/components/panel.tsx'
import { createPanelStore } from '../../../../extension/src/panel/store/panel-store.ts'
import { recordingPage, repeat } from './support/recorded-session.ts'

afterEach(cleanup)

const SECRET = 'hunter2-in-a-sanitized-import'
const sink = { current: () => RECOMMENDED_CONFIG, apply: async () => {} }

function exported(content: 'sanitized' | 'with-arguments'): File {
  const source = createPanelStore()
  const page = recordingPage()
  repeat(page, { name: 'lead' }, 'login', { password: SECRET }, 5)
  source.ingest({ frameId: 0, url: 'http://x/', events: [{ type: 'config', at: 1, config: page.guard.config }, ...page.take()] })
  return new File([source.exportSession(content)], `${content}.json`, { type: 'application/json' })
}

async function opened(file: File): Promise<void> {
  render(<Panel store={createPanelStore()} sink={sink} theme="light" />)
  const input = screen.getByTestId('import-input')
  Object.defineProperty(input, 'files', { configurable: true, value: [file] })
  fireEvent(input, new Event('change', { bubbles: true }))
  await waitFor(() => expect(screen.getByTestId('agent-label').textContent).toBe('lead'))
}

async function replayed(): Promise<HTMLElement> {
  fireEvent.click(screen.getByTestId('tab-what-if'))
  fireEvent.click(within(screen.getByTestId('what-if-editor')).getByTestId('config-apply'))
  return screen.findByTestId('what-if-summary')
}

it('shows a sanitized session’s rows with their stand-ins, says what was replaced, and how What-if compares', async () => {
  await opened(exported('sanitized'))
  expect(screen.getByTestId('import-sanitized').textContent).toContain('tool arguments, results and fault texts show as their length and a hash')
  expect(document.body.textContent!.includes(SECRET)).toBe(false)
  expect(document.body.textContent).toMatch(/\[sanitized: \d+ chars, hash [0-9a-f]{16}\]/)
  const summary = await replayed()
  expect(screen.getByTestId('what-if-sanitized').textContent).toContain('Equal arguments have equal hashes')
  expect(summary.textContent).toContain('Replayed 5 calls: 2 reminders fired, 2 reminders would fire with this config.')
  expect(screen.queryAllByTestId('what-if-row').filter((row) => row.getAttribute('data-change') !== 'same')).toEqual([])
})

it('says nothing of it for a session exported with its arguments', async () => {
  await opened(exported('with-arguments'))
  expect(screen.queryByTestId('import-sanitized')).toBeNull()
  expect(document.body.textContent!.includes(SECRET)).toBe(true)
  await replayed()
  expect(screen.queryByTestId('what-if-sanitized')).toBeNull()
})
