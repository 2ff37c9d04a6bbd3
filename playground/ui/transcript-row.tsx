// One message of a conversation, as the model sees it, with what the page knows about it.
import type { ModelViewRow } from '../agent/model-view.ts'
import type { TranscriptEntry } from '../agent/transcript.ts'

const VIA_LABEL = { extension: 'the extension (window.__REPEAT_TOOL_GUARD__)', playground: "the playground's own engine" } as const

function Flags({ row }: { row: Extract<ModelViewRow, { kind: 'entry' }> }) {
  return (
    <>
      {row.unsent && <span class="flag">not seen by the model yet</span>}
      {row.changed && <span class="flag flag-bad">reached the model changed</span>}
    </>
  )
}

function Body({ entry }: { entry: TranscriptEntry }) {
  switch (entry.kind) {
    case 'assistant':
      return (
        <>
          {entry.message.content && <pre class="text">{entry.message.content}</pre>}
          {entry.message.tool_calls?.map((call) => (
            <div class="call" data-call-id={call.id} key={call.id}>
              <code class="call-name">{call.function.name}</code> <code class="call-args">{call.function.arguments}</code>
              <span class="call-id">{call.id}</span>
            </div>
          ))}
        </>
      )
    default:
      return <pre class="text">{entry.message.content}</pre>
  }
}

function heading(entry: TranscriptEntry): string {
  switch (entry.kind) {
    case 'system':
      return 'system'
    case 'prompt':
      return 'user · prompt'
    case 'assistant':
      return entry.message.tool_calls?.length ? `assistant · ${entry.message.tool_calls.length} tool call${entry.message.tool_calls.length > 1 ? 's' : ''}` : 'assistant · answer'
    case 'tool-result':
      return `tool · ${entry.tool} · ${entry.message.tool_call_id}`
    case 'reminder':
      return `user · reminder from repeat-tool-guard${entry.summary ? ` · ${entry.summary}` : ''}`
  }
}

export function TranscriptRow({ row, index }: { row: ModelViewRow; index: number }) {
  if (row.kind === 'inserted') {
    return (
      <li class="msg msg-reminder msg-inserted" data-kind="wire-inserted" data-index={index}>
        <div class="msg-head">
          <span class="msg-index">#{index}</span> {row.role} · inserted on the wire by the extension (zero-code mode)
        </div>
        <pre class="text">{row.text}</pre>
      </li>
    )
  }
  const { entry } = row
  const extra =
    entry.kind === 'tool-result'
      ? { 'data-tool': entry.tool, 'data-denied': String(entry.denied), 'data-error': String(entry.isError), ...(entry.blocked && { 'data-blocked': 'true' }) }
      : entry.kind === 'reminder'
        ? { 'data-via': entry.via, 'data-summary': entry.summary ?? '' }
        : {}
  return (
    <li class={`msg msg-${entry.kind}${row.unsent ? ' msg-unsent' : ''}`} data-kind={entry.kind} data-index={index} data-changed={String(row.changed)} {...extra}>
      <div class="msg-head">
        <span class="msg-index">#{index}</span> {heading(entry)}
        {entry.kind === 'tool-result' && entry.denied && <span class="flag flag-bad">{entry.blocked ? 'blocked by the guard' : 'denied'}</span>}
        {entry.kind === 'tool-result' && entry.isError && !entry.denied && <span class="flag">error</span>}
        {entry.kind === 'reminder' && <span class="source">via {VIA_LABEL[entry.via]}</span>}
        <Flags row={row} />
      </div>
      <Body entry={entry} />
    </li>
  )
}
