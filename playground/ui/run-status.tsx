// One line on where the run stands; `data-state` is the machine-readable form.
import type { AgentStatus } from '../agent/agent.ts'
import type { Session } from '../agent/session.ts'

export type RunState = { readonly phase: 'idle' | 'starting' | 'running' | 'done' } | { readonly phase: 'failed'; readonly message: string }

const LEAD_OUTCOME: Record<Exclude<AgentStatus, 'failed'>, string> = {
  answered: 'The agent answered.',
  'step-limit': 'The agent hit the step limit without answering.',
  stopped: 'Stopped.',
  waiting: 'Waiting.',
  working: 'Working…',
}

export function RunStatus({ state, session }: { state: RunState; session: Session | undefined }) {
  const lead = session?.lead
  const machine = state.phase === 'done' && lead ? lead.status : state.phase
  const steps = lead ? lead.entries.filter((e) => e.kind === 'assistant').length : 0
  const text =
    state.phase === 'failed'
      ? state.message
      : state.phase === 'starting'
        ? 'Starting the scripted model…'
        : state.phase === 'running'
          ? `Running… ${steps} model request${steps === 1 ? '' : 's'} so far.`
          : state.phase === 'done' && lead
            ? lead.status === 'failed'
              ? `The agent failed: ${lead.error ?? 'unknown error'}`
              : `${LEAD_OUTCOME[lead.status]} ${steps} model request${steps === 1 ? '' : 's'}.`
            : 'Ready.'
  return (
    <p class={`run-status run-${machine}`} data-testid="run-status" data-state={machine} role="status">
      {text}
    </p>
  )
}
