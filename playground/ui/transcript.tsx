// Every agent's conversation as its model sees it: the lead first, subagents under it.
import type { Agent } from '../agent/agent.ts'
import { modelView } from '../agent/model-view.ts'
import type { Session } from '../agent/session.ts'
import { TranscriptRow } from './transcript-row.tsx'

const STATUS_LABEL: Record<Agent['status'], string> = {
  waiting: 'waiting for its turn',
  working: 'working',
  answered: 'answered',
  'step-limit': 'stopped at the step limit',
  failed: 'failed',
  stopped: 'stopped',
}

function AgentConversation({ agent }: { agent: Agent }) {
  const rows = modelView(agent)
  const reported = agent.received !== undefined
  return (
    <section class="conversation" data-agent={agent.name} data-status={agent.status}>
      <header class="conversation-head">
        <h3>{agent.name}</h3>
        {agent.parent && <span class="muted">subagent of {agent.parent.name}</span>}
        <span class={`status status-${agent.status}`}>{STATUS_LABEL[agent.status]}</span>
      </header>
      {agent.error && (
        <p class="error" role="alert">
          {agent.error}
        </p>
      )}
      <ol class="messages">
        {rows.map((row, i) => (
          <TranscriptRow row={row} index={i} key={i} />
        ))}
      </ol>
      {!reported && rows.length > 2 && <p class="muted note">This endpoint does not report what it received: messages another layer adds on the way are not shown here.</p>}
    </section>
  )
}

export function Transcript({ session }: { session: Session | undefined }) {
  if (!session)
    return (
      <p class="empty" data-testid="transcript-empty">
        Pick a scenario and press Run. The transcript shows every message the model sees, with the guard's reminders where they land.
      </p>
    )
  return (
    <div class="transcript" data-testid="transcript">
      {session.agents.map((agent) => (
        <AgentConversation agent={agent} key={agent.name} />
      ))}
    </div>
  )
}
