// The one stream of what a registered process's guard reports (node/guard-events.ts): every
// listener gets every event from its subscription on, and a listener that throws loses only itself
// that event.
import { expect, test } from 'vitest'
import { createGuardEvents, type NodeGuardEvent } from '../../../node/guard-events.ts'

const fault = (message: string): NodeGuardEvent => ({ type: 'fault', at: 1, message })

test('listeners get the events from their subscription until they stop; a throwing one harms no other', () => {
  const events = createGuardEvents()
  const first: string[] = []
  const second: string[] = []
  events.emit(fault('before anyone listened'))
  const stopFirst = events.subscribe((event) => first.push(event.type === 'fault' ? event.message : event.type))
  events.subscribe(() => {
    throw new Error('a broken listener')
  })
  events.subscribe((event) => second.push(event.type === 'fault' ? event.message : event.type))
  events.emit(fault('one'))
  stopFirst()
  events.emit(fault('two'))
  expect(first).toEqual(['one'])
  expect(second).toEqual(['one', 'two'])
})
