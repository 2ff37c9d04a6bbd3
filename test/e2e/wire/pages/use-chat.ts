// A chat page on `@ai-sdk/react`'s useChat with DefaultChatTransport, knowing nothing of the guard:
// `window.chat.start(text, tools)` mounts a chat against `/chat` whose tools run on the server, or
// on the page (`tools: 'client'`: each call answered with addToolOutput, the next request sent by
// `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls`). `stop()` is useChat's.
import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai'
import { createElement, useEffect } from 'react'
import { createRoot } from 'react-dom/client'

export const SEARCH_RESULT = 'no match in src/'

interface ChatHandle {
  readonly status: string
  readonly messages: readonly UIMessage[]
  stop(): Promise<void>
}

let current: ChatHandle | undefined
let settle: ((handle: ChatHandle) => void) | undefined

function Chat({ text, tools, slow }: { readonly text: string; readonly tools: 'server' | 'client'; readonly slow: number }) {
  const query = `?tools=${tools}${slow > 0 ? `&slow=${slow}` : ''}`
  const chat = useChat({
    transport: new DefaultChatTransport({ api: `/chat${query}` }),
    ...(tools === 'client'
      ? {
          sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
          onToolCall: ({ toolCall }) => {
            void chat.addToolOutput({ tool: 'search', toolCallId: toolCall.toolCallId, output: SEARCH_RESULT })
          },
        }
      : {}),
  })
  current = { status: chat.status, messages: chat.messages, stop: chat.stop }
  useEffect(() => {
    void chat.sendMessage({ text })
  }, [])
  useEffect(() => {
    // Ready again with the model's answer (a client-side tool's call also leaves the chat ready, until its result is sent).
    const answered = chat.messages.at(-1)?.parts.some((p) => p.type === 'text') === true
    if (chat.status === 'error' || (chat.status === 'ready' && answered)) settle?.(current!)
  }, [chat.status, chat.messages])
  return createElement('pre', null, chat.messages.map((m) => `${m.role}: ${m.parts.map((p) => p.type).join(',')}`).join('\n'))
}

const root = createRoot(document.body.appendChild(document.createElement('div')))

Object.assign(window, {
  chat: {
    /** Resolves once the chat is ready again: the loop's last response read. */
    start: (text: string, tools: 'server' | 'client', slow = 0) =>
      new Promise<{ status: string; parts: string[] }>((resolve) => {
        settle = (handle) => resolve({ status: handle.status, parts: handle.messages.flatMap((m) => m.parts.map((p) => p.type)) })
        root.render(createElement(Chat, { text, tools, slow }))
      }),
    /** Mounts the chat and returns at once. */
    open: (text: string, tools: 'server' | 'client', slow = 0) => void root.render(createElement(Chat, { text, tools, slow })),
    status: () => current?.status,
    /** The tool results the page has read so far. */
    outputs: () => current?.messages.flatMap((m) => m.parts.filter((p) => p.type.startsWith('tool-') && 'state' in p && p.state === 'output-available')).length ?? 0,
    stop: () => current?.stop(),
  },
})
