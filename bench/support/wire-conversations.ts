// The conversations the wire bench times: a long coding session with a loop in it, and the same
// conversation as OpenAI Responses continued by id.
import type { ResponsesRequest, StatefulResponses } from '../../engine/wire/stateful/responses.ts'
import type { Body, Script, Turn } from '../../test/fixtures/wire/conversations.ts'

/** A long coding session: varied tool calls with file-sized results, with a loop at `loopAt`. */
export function session(steps: number, resultChars: number, loopAt: number): Script {
  const chunk = 'export function load(path: string) {\n\treturn JSON.parse(read("config.json"))\n}\n'
  const turns: Turn[] = [{ prompt: 'Find out why the config loader ignores the threshold setting, and fix it.' }]
  for (let i = 0; i < steps; i++) {
    const name = ['read_file', 'grep', 'list_dir'][i % 3]!
    if (i === loopAt) for (let n = 0; n < 6; n++) turns.push({ calls: [{ name: 'run_tests', args: { filter: 'config' }, result: 'FAIL config.test.ts: expected 5, got 3' }] })
    turns.push({ calls: [{ name, args: { path: `src/module-${i % 37}.ts`, pattern: 'threshold' }, result: chunk.repeat(Math.ceil(resultChars / chunk.length)) }] })
  }
  return { system: 'You are a coding agent working in a TypeScript repository. Use the tools to investigate, then fix.', turns }
}

/**
 * The conversation of a stateless Responses body as the SDKs send it by id: each response's output
 * is a run of calls, and each request the items after the previous run. The store learns every
 * response (as from its tee); returns the last request, which continues the last response.
 */
export function chainOf(body: Body, stateful: StatefulResponses): { last: ResponsesRequest; previous: ResponsesRequest } {
  const items = body.input as { type?: string }[]
  const requests: ResponsesRequest[] = []
  let from = 0
  let previousId: string | undefined
  for (let i = 0; i <= items.length; i++) {
    const isCall = items[i]?.type === 'function_call'
    if (i < items.length && !isCall) continue
    let end = i
    while (items[end]?.type === 'function_call') end++
    const own = { model: body.model, instructions: body.instructions, input: items.slice(from, i), ...(previousId === undefined ? {} : { previous_response_id: previousId }) }
    const request = stateful.request(JSON.stringify(own))!
    requests.push(request)
    if (i === items.length) break
    const id = `resp_${requests.length}`
    const reading = stateful.reading(request)
    reading.push(JSON.stringify({ id, object: 'response', output: items.slice(i, end) }))
    reading.end()
    previousId = id
    from = end
    i = end - 1
  }
  return { last: requests.at(-1)!, previous: requests.at(-2)! }
}
