// Repeated answers in OpenAI Responses continued by id (docs/zero-code.md, "Repeated answers"): an
// answer in an earlier response of the chain has its place in a part the provider already has.
import { expect, test } from 'vitest'
import { createWireGuard } from '../../../engine/wire/index.ts'
import { createStatefulResponses } from '../../../engine/wire/stateful/responses.ts'
import { configWith, ofType } from './support/detector-runs.ts'
import { call, first, message, next, output, responseJson } from './support/responses-chain.ts'

test('answers repeated across responses continued by id get no reminder, and none is reported', () => {
  const stateful = createStatefulResponses()
  const wire = createWireGuard()
  const config = configWith({ repeatedText: { after: 2 } })
  const send = (body: object, id: string, out: readonly unknown[]) => {
    const request = stateful.request(JSON.stringify(body))!
    const inspection = stateful.inspect(wire, request, config)
    const reading = stateful.reading(request)
    reading.push(responseJson(id, out))
    reading.end()
    return { text: request.text, sent: inspection?.body ?? request.text, events: inspection?.events ?? [] }
  }
  const turns = [
    send(first(), 'resp_0', [call(1)]),
    send(next('resp_0', [output(1)]), 'resp_1', [message('Done.')]),
    send(next('resp_1', [{ role: 'user', content: 'continue' }]), 'resp_2', [message('Done.')]),
    send(next('resp_2', [{ role: 'user', content: 'continue' }]), 'resp_3', [message('Done.')]),
  ]
  expect(turns.map(({ text, sent }) => sent === text)).toEqual([true, true, true, true])
  expect(turns.flatMap(({ events }) => ofType(events, 'reminder'))).toEqual([])
  // The same history sent whole gets the reminder after the second answer.
  const whole = {
    ...first(),
    input: [...(first().input as unknown[]), call(1), output(1), message('Done.'), { role: 'user', content: 'continue' }, message('Done.'), { role: 'user', content: 'continue' }],
  }
  const inspection = createWireGuard().inspect(JSON.stringify(whole), config)!
  expect(ofType(inspection.events, 'reminder').map((e) => [e.level, e.count, e.placement])).toEqual([['repeated-text', 2, 'input[6]']])
})
