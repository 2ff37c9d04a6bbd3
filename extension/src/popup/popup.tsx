import type { TabSummary } from '../protocol/messages.ts'
import { ZeroCodeSwitch } from '../ui/zero-code-switch.tsx'
import type { ZeroCodeSink } from '../ui/zero-code-sink.ts'
import type { ServerCount } from './server-counts.ts'

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

export type PopupState = { readonly kind: 'loading' } | { readonly kind: 'failed'; readonly reason: string } | { readonly kind: 'ready'; readonly tabId: number; readonly summary: TabSummary }

/** What the toolbar's popup says about the active tab, and how to see more. */
export function Popup({ state, zeroCode, servers = [] }: { state: PopupState; zeroCode: ZeroCodeSink; servers?: readonly ServerCount[] }) {
  if (state.kind === 'loading') return <p class="rtg-popup-note">Loading…</p>
  if (state.kind === 'failed')
    return (
      <p class="rtg-error" role="alert">
        {state.reason}
      </p>
    )
  const { tabId, summary } = state
  return (
    <section class="rtg-popup" aria-label="Repeat Tool Guard on this tab">
      <h1>Repeat Tool Guard</h1>
      <p data-testid="popup-agents">{summary.agents.length === 0 ? 'No agent seen on this page yet.' : `${plural(summary.agents.length, 'agent')} seen`}</p>
      {summary.agents.length > 0 && (
        <ul class="rtg-popup-agents">
          {summary.agents.map((agent) => (
            <li key={agent.id}>
              {agent.label} <span class="rtg-popup-kind">{agent.reach ?? agent.kind}</span>
            </li>
          ))}
        </ul>
      )}
      <p data-testid="popup-reminders">
        {plural(summary.reminders, 'reminder')} fired
        {summary.observed > 0 && `, ${plural(summary.observed, 'reminder')} only observed (not sent)`}
      </p>
      {servers.length > 0 && <ServerCounts servers={servers} />}
      {summary.pageOrigin !== null && (
        <p>
          <ZeroCodeSwitch sink={zeroCode} origin={summary.pageOrigin} />
        </p>
      )}
      <p class="rtg-popup-note">
        Every call and reminder: DevTools → <b>Repeat Tool Guard</b>, or{' '}
        <a href={`panel.html?tabId=${tabId}`} target="_blank" rel="noreferrer" data-testid="popup-panel-link">
          open the panel in a tab
        </a>
        .
      </p>
    </section>
  )
}

/** The Node processes behind a page served from localhost, counted apart from the page's own agents. */
function ServerCounts({ servers }: { servers: readonly ServerCount[] }) {
  const agents = servers.reduce((sum, server) => sum + server.agents, 0)
  return (
    <>
      <p data-testid="popup-server-agents">
        {plural(agents, 'server agent')} in {servers.length} Node process{servers.length === 1 ? '' : 'es'}
      </p>
      <ul class="rtg-popup-agents">
        {servers.map((server) => (
          <li key={server.port} data-testid="popup-server">
            {server.label}
            {server.gone ? ' · gone' : ''}: {plural(server.agents, 'agent')}, {server.truncated ? 'at least ' : ''}
            {plural(server.reminders, 'reminder')} fired{server.observed > 0 && `, ${plural(server.observed, 'reminder')} only observed`}
          </li>
        ))}
      </ul>
    </>
  )
}
