import './common-controls.css'
import './empty-state.css'
import type { ComponentChildren } from 'preact'

interface EmptyStateProps {
  readonly title: string
  readonly children?: ComponentChildren
  readonly testId?: string
  /** Sits above other content (rows) instead of filling the pane. */
  readonly inline?: boolean
}

/** A placeholder that says what to do next, DevTools-style: centred, quiet. */
export function EmptyState({ title, children, testId = 'empty-state', inline = false }: EmptyStateProps) {
  return (
    <div class={inline ? 'rtg-empty rtg-empty-inline' : 'rtg-empty'} data-testid={testId}>
      <p class="rtg-empty-title">{title}</p>
      {children !== undefined && <div class="rtg-empty-body">{children}</div>}
    </div>
  )
}

/** How to get an agent on screen: the page API, or any transport the extension reaches (docs/zero-code.md, "Reach"). */
export function NoAgentYet({ inline = false }: { inline?: boolean }) {
  return (
    <EmptyState title="No agent seen on this page yet." testId="no-agent-yet" inline={inline}>
      <p>
        Call <code class="mono">window.__REPEAT_TOOL_GUARD__.postExecute(...)</code> from your agent loop, or let the page call a model over <code class="mono">fetch</code> or{' '}
        <code class="mono">XMLHttpRequest</code> (or through WebLLM's worker), or expose tools through WebMCP: its agents, calls and reminders show up here live.
      </p>
      <pre class="rtg-pre mono rtg-snippet">{`const guard = window.__REPEAT_TOOL_GUARD__
const d = await guard.postExecute({ agent, name, arguments: args }, { isError, denied })
for (const m of d.additionalContexts ?? []) history.push(m)`}</pre>
    </EmptyState>
  )
}
