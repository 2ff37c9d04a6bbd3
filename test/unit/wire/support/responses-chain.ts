// What the tests of OpenAI Responses continued by id share: the items and responses of a chain, a
// page that sends its requests and reads its responses through the guard, and a looping chain.
import { RECOMMENDED_CONFIG } from '../../../../engine/index.ts'
import { createWireGuard, type WireEvent, type WireGuard } from '../../../../engine/wire/index.ts'
import { createStatefulResponses, type StatefulResponses } from '../../../../engine/wire/stateful/responses.ts'
import { detailed } from '../../../fixtures/wire/reminders.ts'

export const SYSTEM = 'You are a careful coding agent.'

export const DETAILED = detailed('read_file', 5, '{"path":"a.txt"}')

export const call = (n: number, args = '{"path":"a.txt"}') => ({ type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'read_file', arguments: args, status: 'completed' })

export const output = (n: number, result = 'export const a = 1') => ({ type: 'function_call_output', call_id: `call_${n}`, output: result })

export const message = (text: string) => ({ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] })

export const reasoning = { type: 'reasoning', id: 'rs_1', summary: [] }

/** A response as the API sends it without streaming. */
export const responseJson = (id: string, out: readonly unknown[]) => JSON.stringify({ id, object: 'response', status: 'completed', output: out })

/** The same response streamed: created, each item done, completed. */
export function responseEvents(id: string, out: readonly unknown[], { completed = true, crlf = false } = {}): string {
  const end = crlf ? '\r\n' : '\n'
  const event = (type: string, fields: object) => `event: ${type}${end}data: ${JSON.stringify({ type, ...fields })}${end}${end}`
  return [
    event('response.created', { response: { id, status: 'in_progress', output: [] } }),
    ...out.map((item, i) => event('response.output_item.done', { output_index: i, item })),
    completed ? event('response.completed', { response: { id, status: 'completed', output: out } }) : '',
  ].join('')
}

export type Body = Record<string, unknown>

export interface Turn {
  readonly body: Body
  /** The body as sent: the page's, or the rewritten one. */
  readonly sent: string
  readonly events: readonly WireEvent[]
}

/** A page driving the API: inspects each request, then reads the response the provider gives. */
export function page(stateful: StatefulResponses = createStatefulResponses(), wire: WireGuard = createWireGuard()) {
  return {
    stateful,
    wire,
    send(body: Body, responseId?: string, out: readonly unknown[] = [], stream = false): Turn {
      const text = JSON.stringify(body)
      const request = stateful.request(text)!
      const inspection = stateful.inspect(wire, request, RECOMMENDED_CONFIG)
      if (responseId !== undefined) {
        const reading = stateful.reading(request)
        const whole = stream ? responseEvents(responseId, out) : responseJson(responseId, out)
        // In pieces, as a network would hand them over.
        for (let i = 0; i < whole.length; i += 50) reading.push(whole.slice(i, i + 50))
        reading.end()
      }
      return { body, sent: inspection?.body ?? text, events: inspection?.events ?? [] }
    },
  }
}

export const first = (): Body => ({ model: 'm', instructions: SYSTEM, input: [{ role: 'user', content: 'make the tests pass' }], tools: [] })

export const next = (previous: string, input: readonly unknown[] | string): Body => ({ model: 'm', instructions: SYSTEM, previous_response_id: previous, input })

/** An SDK loop on one call: request n answers call n of response n - 1. */
export function loop(steps: number, stream = false) {
  const p = page()
  const turns = [p.send(first(), 'resp_0', [call(1)], stream)]
  for (let n = 1; n <= steps; n++) turns.push(p.send(next(`resp_${n - 1}`, [output(n)]), `resp_${n}`, n < steps ? [call(n + 1)] : [message('done')], stream))
  return { p, turns }
}

export const reminderPlacements = (turns: readonly Turn[]) => turns.map((turn) => turn.events.flatMap((e) => (e.type === 'reminder' ? [[e.level, e.placement]] : [])))
