// The conversation as the model saw it. Each request carries the whole conversation, so the
// latest request tells everything: when the model reports what it received (the scripted model
// does), messages inserted on the way (by the extension's zero-code mode) show up in place, and a
// message that arrived different from how the page sent it is flagged.
import { canonicalArguments } from '../../engine/index.ts'
import type { Agent } from './agent.ts'
import type { TranscriptEntry } from './transcript.ts'

export type ModelViewRow =
  | {
      readonly kind: 'entry'
      readonly entry: TranscriptEntry
      /** Added after the latest request (and not its reply): the model has not seen it yet. */
      readonly unsent: boolean
      /** Sent, but the model received something else in its place. */
      readonly changed: boolean
    }
  | {
      /** Not sent by the page: added between the page and the model. */
      readonly kind: 'inserted'
      readonly role: string
      readonly text: string
    }

function textOf(message: unknown): { role: string; text: string } {
  const { role, content } = (typeof message === 'object' && message !== null ? message : {}) as { role?: unknown; content?: unknown }
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((p: unknown) => (typeof (p as { text?: unknown } | null)?.text === 'string' ? (p as { text: string }).text : '')).join('\n')
        : canonicalArguments(content)
  return { role: typeof role === 'string' ? role : 'unknown', text }
}

export function modelView(agent: Pick<Agent, 'entries' | 'sentCount' | 'received'>): ModelViewRow[] {
  const { entries, sentCount, received } = agent
  const unsent = (i: number) => i > sentCount || (i === sentCount && entries[i]!.kind !== 'assistant')
  const rows: ModelViewRow[] = []
  if (!received) {
    entries.forEach((entry, i) => rows.push({ kind: 'entry', entry, unsent: unsent(i), changed: false }))
    return rows
  }
  // The page only appends and an interceptor may only insert: walk both in order. A received
  // message that is not the page's next one is an insertion if that one still arrives later;
  // otherwise it is the page's message, changed on the way.
  const sent = entries.slice(0, sentCount).map((e) => canonicalArguments(e.message))
  const got = received.map((m) => canonicalArguments(m))
  let next = 0
  got.forEach((key, k) => {
    if (next < sent.length && (key === sent[next] || !got.includes(sent[next]!, k + 1))) {
      rows.push({ kind: 'entry', entry: entries[next]!, unsent: false, changed: key !== sent[next] })
      next += 1
    } else {
      rows.push({ kind: 'inserted', ...textOf(received[k]) })
    }
  })
  // Sent but never received: dropped on the way.
  for (let i = next; i < entries.length; i++) rows.push({ kind: 'entry', entry: entries[i]!, unsent: unsent(i), changed: i < sentCount })
  return rows
}
