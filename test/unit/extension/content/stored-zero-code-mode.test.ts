import { describe, expect, test } from 'vitest'
import { startZeroCodeDelivery } from '../../../../extension/src/content/stored-zero-code-mode.ts'
import { ZERO_CODE_STORAGE_KEY, type ZeroCodeMode } from '../../../../extension/src/protocol/zero-code-mode.ts'

type Listener = (changes: Record<string, { newValue?: unknown }>, area: string) => void

function setUp(stored: Promise<Record<string, unknown>>, origin: string | undefined) {
  const posted: ZeroCodeMode[] = []
  const refused: string[][] = []
  const listeners: Listener[] = []
  const delivery = startZeroCodeDelivery({
    storage: { local: { get: () => stored }, onChanged: { addListener: (l) => void listeners.push(l) } },
    origin,
    post: (mode) => posted.push(mode),
    rejected: (reasons) => refused.push([...reasons]),
  })
  const change = (newValue: unknown, area = 'local', key = ZERO_CODE_STORAGE_KEY) => {
    for (const l of listeners) l({ [key]: { newValue } }, area)
  }
  return { posted, refused, delivery, change }
}

describe("the content script brings the frame's setting to the page", () => {
  test('the stored setting for this origin, then every change of it', async () => {
    const { posted, change } = setUp(Promise.resolve({ [ZERO_CODE_STORAGE_KEY]: { 'https://app.example': 'guard' } }), 'https://app.example')
    await expect.poll(() => posted).toEqual(['guard'])
    change({ 'https://app.example': 'off' })
    change({ 'https://app.example': 'guard' }, 'sync')
    change('ignored', 'local', 'config')
    // Removed from storage: back to the default.
    change(undefined)
    expect(posted).toEqual(['guard', 'off', 'observe'])
  })

  test('another origin (an iframe) gets its own setting; nothing stored means its default', async () => {
    const frame = setUp(Promise.resolve({ [ZERO_CODE_STORAGE_KEY]: { 'https://app.example': 'guard' } }), 'https://widget.example')
    const local = setUp(Promise.resolve({}), 'http://localhost:5173')
    await expect.poll(() => [frame.posted, local.posted]).toEqual([['observe'], ['guard']])
  })

  test('bad entries are refused with their reasons; the good ones still apply', async () => {
    const { posted, refused } = setUp(Promise.resolve({ [ZERO_CODE_STORAGE_KEY]: { 'https://app.example': 'off', 'https://bad.example': 'always' } }), 'https://app.example')
    await expect.poll(() => posted).toEqual(['off'])
    expect(refused).toEqual([['"https://bad.example": the setting must be one of guard, observe, off']])
  })

  test('resend: nothing before the setting is known, the known one after', async () => {
    let resolve!: (items: Record<string, unknown>) => void
    const { posted, delivery } = setUp(new Promise((r) => (resolve = r)), 'https://app.example')
    delivery.resend()
    expect(posted).toEqual([])
    resolve({ [ZERO_CODE_STORAGE_KEY]: { 'https://app.example': 'guard' } })
    await expect.poll(() => posted).toEqual(['guard'])
    delivery.resend()
    expect(posted).toEqual(['guard', 'guard'])
  })

  test('storage that fails leaves the page on its default, silently', async () => {
    const failing = setUp(Promise.reject(new Error('context invalidated')), 'https://app.example')
    // Started after it: once this one has posted, the failed read has been handled too.
    const working = setUp(Promise.resolve({}), 'https://app.example')
    await expect.poll(() => working.posted).toEqual(['observe'])
    expect(failing.posted).toEqual([])
    expect(failing.refused).toEqual([])
  })
})
