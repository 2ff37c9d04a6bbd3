// @vitest-environment happy-dom
// The Config tab's list of Node processes' bridge ports (panel/components/bridge-ports-editor.tsx):
// a port typed wrong is refused with the reason and nothing stored; a good one is listed and stored;
// Remove takes it out; a change made in another panel shows.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { BridgePortsEditor } from '../../../../extension/src/panel/components/bridge-ports-editor.tsx'
import { BRIDGE_PORTS_STORAGE_KEY, createStoredBridgePorts } from '../../../../extension/src/ui/stored-bridge-ports.ts'
import { fakeStorage } from './support/fake-storage.ts'

afterEach(cleanup)

const listed = () => screen.queryAllByTestId('bridge-port').map((item) => item.textContent)

async function typeAndAdd(text: string) {
  fireEvent.input(screen.getByTestId('bridge-port-input'), { target: { value: text } })
  fireEvent.click(screen.getByTestId('bridge-port-add'))
}

describe('the bridge ports editor', () => {
  it('refuses a port typed wrong with the reason, and stores nothing', async () => {
    const storage = fakeStorage()
    render(<BridgePortsEditor setting={await createStoredBridgePorts(storage)} />)
    await typeAndAdd('87x0')
    await waitFor(() => expect(screen.getByTestId('bridge-port-error').textContent).toBe('"87x0" is not a port: a whole number from 1 to 65535.'))
    expect(screen.getByTestId('bridge-port-input').getAttribute('aria-invalid')).toBe('true')
    expect([listed(), storage.items[BRIDGE_PORTS_STORAGE_KEY]]).toEqual([[], undefined])
    // Typing again clears the reason.
    fireEvent.input(screen.getByTestId('bridge-port-input'), { target: { value: '8' } })
    expect(screen.queryByTestId('bridge-port-error')).toBeNull()
  })

  it('lists and stores a good port, clears the field, and removes it again', async () => {
    const storage = fakeStorage({ [BRIDGE_PORTS_STORAGE_KEY]: [8740] })
    render(<BridgePortsEditor setting={await createStoredBridgePorts(storage)} />)
    expect(listed()).toEqual(['8740 Remove'])
    await typeAndAdd('8741')
    await waitFor(() => expect([listed(), (screen.getByTestId('bridge-port-input') as HTMLInputElement).value]).toEqual([['8740 Remove', '8741 Remove'], '']))
    expect(storage.items[BRIDGE_PORTS_STORAGE_KEY]).toEqual([8740, 8741])
    fireEvent.click(screen.getByRole('button', { name: 'Remove port 8740' }))
    await waitFor(() => expect(listed()).toEqual(['8741 Remove']))
    expect(storage.items[BRIDGE_PORTS_STORAGE_KEY]).toEqual([8741])
  })

  it('shows a port another panel added', async () => {
    const storage = fakeStorage()
    render(<BridgePortsEditor setting={await createStoredBridgePorts(storage)} />)
    storage.external(BRIDGE_PORTS_STORAGE_KEY, [8750])
    await waitFor(() => expect(listed()).toEqual(['8750 Remove']))
  })
})
