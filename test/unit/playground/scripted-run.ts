// Runs a scenario end to end in Node: the real agent loop, tools and guard, with `fetch`
// answered by the scripted model's request handler (what the service worker does in the page).
import { vi } from 'vitest'
import { createRepeatToolGuard, RECOMMENDED_CONFIG, type GuardConfigInput, type RepeatToolGuard } from '../../../engine/index.ts'
import type { Agent } from '../../../playground/agent/agent.ts'
import { guardPort } from '../../../playground/agent/guard-port.ts'
import { Session } from '../../../playground/agent/session.ts'
import { scriptedBaseUrl, scriptedModelId } from '../../../playground/model/endpoint.ts'
import { respond } from '../../../playground/model/respond.ts'
import { findScenario } from '../../../playground/model/scenarios/index.ts'

export const BASE = 'http://playground.test/'

/** Installs a `fetch` that answers `<BASE>v1/chat/completions` with the scripted model; returns the requests seen. */
export function stubScriptedFetch(): { bodies: unknown[] } {
  const bodies: unknown[] = []
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    if (url !== `${BASE}v1/chat/completions`) return new Response('not found', { status: 404 })
    const body: unknown = JSON.parse(String(init.body))
    bodies.push(body)
    const answer = respond(body)
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } })
  })
  return { bodies }
}

export interface RunOptions {
  guard?: boolean
  config?: GuardConfigInput
  /** The guard to use instead of a fresh one with `config`. */
  engine?: RepeatToolGuard
  allowDelete?: boolean
  stepLimit?: number
}

export async function runScenario(id: string, options: RunOptions = {}): Promise<Session> {
  const scenario = findScenario(id)
  if (!scenario) throw new Error(`no scenario ${id}`)
  const faults: string[] = []
  const engine = options.engine ?? createRepeatToolGuard({ ...RECOMMENDED_CONFIG, ...options.config })
  const session = new Session({
    endpoint: { baseUrl: scriptedBaseUrl(BASE), model: scriptedModelId(id) },
    lead: scenario.lead,
    permissions: { allowDelete: options.allowDelete ?? scenario.allowDelete },
    ...(options.guard === false ? {} : { guard: guardPort(engine, 'playground', (f) => faults.push(f)) }),
    stepLimit: options.stepLimit ?? 12,
  })
  await session.send(scenario.prompt)
  if (faults.length > 0) throw new Error(faults.join('\n'))
  return session
}

const KINDS: readonly (readonly [string, string])[] = [
  ['Repeated tool call detected', 'detailed'],
  ['Repeated cycle of tool calls detected', 'cycle'],
  ['You are calling the same tool', 'same-tool'],
  ['Repeated tool use detected', 'same-tool-detailed'],
  ['Near-repeated tool calls detected', 'similar'],
  ['Repeated tool errors detected', 'error-run'],
]

/** Each reminder as `<tool results before it>:<gentle|detailed|cycle|same-tool|same-tool-detailed|similar|error-run>`. */
export function reminderMarks(agent: Agent): string[] {
  let results = 0
  const marks: string[] = []
  for (const entry of agent.entries) {
    if (entry.kind === 'tool-result') results += 1
    if (entry.kind === 'reminder') marks.push(`${results}:${KINDS.find(([start]) => entry.message.content.startsWith(start))?.[1] ?? 'gentle'}`)
  }
  return marks
}

export const toolNames = (agent: Agent) => agent.entries.flatMap((e) => (e.kind === 'tool-result' ? [e.tool] : []))
