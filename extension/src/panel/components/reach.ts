// How the guard reached each agent, in words for the panel, and what stays out of its reach
// (docs/zero-code.md, "Reach").
import type { AgentDescriptor, AgentReach } from '../../protocol/events.ts'

const REACH_TITLES: Readonly<Record<AgentReach, string>> = {
  fetch: 'Seen in the LLM requests the page sends with fetch',
  xhr: 'Seen in the LLM requests the page sends with XMLHttpRequest',
  'responses-stateful': 'OpenAI Responses continued with previous_response_id: its tool calls are read from the responses the page receives',
  webmcp: 'Calls of the tools this frame exposes through WebMCP (document.modelContext, navigator.modelContext)',
  webllm: "Seen in the chat completion requests the page posts to WebLLM's worker",
}

/** The badge text and tooltip that say how an agent was reached. */
export function reachOf({ kind, reach, format }: AgentDescriptor): { readonly text: string; readonly title: string } {
  if (kind === 'hook') return { text: 'page API', title: 'Calls window.__REPEAT_TOOL_GUARD__' }
  if (reach !== undefined) return { text: reach, title: REACH_TITLES[reach] }
  return { text: kind, title: `Seen in ${format ?? 'LLM'} requests` }
}

/** What no hook in the page can see: said wherever the panel shows agents reached without the page's help. */
export const OUT_OF_REACH =
  "Requests made inside workers and service workers, WebSockets and WebRTC (realtime APIs), EventSource, sendBeacon, Chrome's built-in Prompt API and tool loops that run on a server are out of the guard's reach."
