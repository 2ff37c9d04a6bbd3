import type { ComponentChildren } from 'preact'

/** A placeholder that says what to do next, DevTools-style: centred, quiet. */
export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="rtg-empty" data-testid="empty-state">
      <p class="rtg-empty-title">{title}</p>
      {children !== undefined && <div class="rtg-empty-body">{children}</div>}
    </div>
  )
}

/** How to get an agent on screen: the two ways the extension sees one. */
export function NoAgentYet() {
  return (
  <>
    <p>
      Call <code class="mono">window.__REPEAT_TOOL_GUARD__.postExecute(...)</code> from your agent loop, or let the page call a model over{' '}
      <code class="mono">fetch</code>: its agents, calls and reminders show up here live.
    </p>
    <pre class="rtg-pre mono rtg-snippet">{`const guard = window.__REPEAT_TOOL_GUARD__
const d = await guard.postExecute({ agent, name, arguments: args }, { isError, denied })
for (const m of d.additionalContexts ?? []) history.push(m)`}</pre>
  </>
  )
}
