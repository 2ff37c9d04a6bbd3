// A chat as `useChat` runs it, without React: the `ai` package's own AbstractChat (what
// `@ai-sdk/react`'s useChat wraps) over a state the Preact page subscribes to. The transport is
// DefaultChatTransport, so the requests and the UI message streams are those of a useChat page.
import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai'

class ObservedState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready'
  error: Error | undefined = undefined
  messages: UIMessage[] = []
  private readonly listeners = new Set<() => void>()

  private changed(): void {
    for (const listener of this.listeners) listener()
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  pushMessage = (message: UIMessage): void => {
    this.messages = [...this.messages, message]
    this.changed()
  }

  popMessage = (): void => {
    this.messages = this.messages.slice(0, -1)
    this.changed()
  }

  replaceMessage = (index: number, message: UIMessage): void => {
    this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)]
    this.changed()
  }

  snapshot = <T>(thing: T): T => structuredClone(thing)

  /** Status changes are told too (AbstractChat sets `status` directly). */
  watchStatus(): void {
    let status = this.status
    Object.defineProperty(this, 'status', {
      get: () => status,
      set: (next: ChatStatus) => {
        status = next
        this.changed()
      },
    })
  }
}

export class PageChat extends AbstractChat<UIMessage> {
  readonly observed: ObservedState

  constructor(init: Omit<ChatInit<UIMessage>, 'messages'> & { readonly observed: ObservedState }) {
    super({ ...init, state: init.observed })
    this.observed = init.observed
  }
}

/** The result the page's `search` tool gives, when the tool runs on the page. */
const PAGE_RESULT = 'No match in src/ (searched 42 files).'

/**
 * A chat against `api`, with `fetch` for its requests. `tools: 'client'`: the page runs `search`
 * (onToolCall + addToolOutput) and the next request goes out by itself (`sendAutomaticallyWhen`).
 */
export function createPageChat(api: string, tools: 'server' | 'client', fetch: typeof globalThis.fetch): PageChat {
  const observed = new ObservedState()
  observed.watchStatus()
  const chat: PageChat = new PageChat({
    observed,
    transport: new DefaultChatTransport({ api: `${api}?tools=${tools}`, fetch }),
    ...(tools === 'client'
      ? {
          sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
          onToolCall: ({ toolCall }) => void chat.addToolOutput({ tool: 'search', toolCallId: toolCall.toolCallId, output: PAGE_RESULT }),
        }
      : {}),
  })
  return chat
}
