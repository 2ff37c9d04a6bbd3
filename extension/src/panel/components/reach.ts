// How the guard reached each agent, in words for the panel, and what stays out of its reach
// (docs/zero-code.md, "Reach").
import type { AgentDescriptor, AgentReach } from '../../protocol/events.ts'

const REACH_TITLES: Readonly<Record<AgentReach, string>> = {
  fetch: 'Seen in the LLM requests the page sends with fetch',
  xhr: 'Seen in the LLM requests the page sends with XMLHttpRequest',
  'responses-stateful': 'OpenAI Responses continued with previous_response_id: its tool calls are read from the responses the page receives',
  webmcp: 'Calls of the tools this frame exposes through WebMCP (document.modelContext, navigator.modelContext)',
  webllm: "Seen in the chat completion requests the page posts to WebLLM's worker",
  'ui-stream': 'A tool loop that runs on a server, read from the AI SDK UI message stream (useChat) the page receives; requests that cross the page (client-side tools) are guarded',
  'ag-ui': 'A tool loop that runs on a server, read from the AG-UI event stream the page receives; requests that cross the page (frontend tools) are guarded',
  'realtime-ws': 'An OpenAI Realtime session over a WebSocket: its tool calls read from the events the page receives, a reminder sent as one more event right after the tool result',
  'realtime-webrtc':
    'An OpenAI Realtime session over WebRTC: its tool calls read from the events of the oai-events data channel, a reminder sent on that channel as one more event right after the tool result',
  'gemini-live': 'A Gemini Live session over a WebSocket: its tool calls read from the messages the page receives, a reminder sent as a user turn right after the tool response',
}

/** The badge text and tooltip that say how an agent was reached. */
export function reachOf({ kind, reach, format }: AgentDescriptor): { readonly text: string; readonly title: string } {
  if (kind === 'hook') return { text: 'page API', title: 'Calls window.__REPEAT_TOOL_GUARD__' }
  if (reach !== undefined) return { text: reach, title: REACH_TITLES[reach] }
  return { text: kind, title: `Seen in ${format ?? 'LLM'} requests` }
}

/** What no hook in the page can see: said wherever the panel shows agents reached without the page's help. */
export const OUT_OF_REACH =
  "Requests made inside workers and service workers, WebSockets other than OpenAI Realtime and Gemini Live sessions, WebRTC data channels other than OpenAI Realtime's oai-events, EventSource, sendBeacon and Chrome's built-in Prompt API are out of the guard's reach; so are tool loops that run on a server, unless they stream their steps to the page as an AI SDK UI message stream or AG-UI events (only shown then: a reminder due inside such a loop would remind)."
