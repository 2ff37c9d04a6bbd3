// The chat of server-loop.html as its user sees it: the prompt, each tool call with its result
// (run on the server, or on the page), the answer, and what the "server's model" said it received
// after the prompt: the reminders a guarded request carried to it.
import type { UIMessage } from 'ai'

type Part = UIMessage['parts'][number]

function PartView({ part }: { part: Part }) {
  if (part.type === 'text') return <p class="text">{part.text}</p>
  if (part.type === 'tool-search' && 'input' in part) {
    const done = part.state === 'output-available'
    return (
      <div class="call" data-testid="chat-call" data-state={part.state}>
        <span class="call-name">search</span> <code>{JSON.stringify(part.input)}</code>
        {done && <span class="muted"> → {String(part.output)}</span>}
      </div>
    )
  }
  if (part.type === 'data-received') {
    const { userMessages } = part.data as { userMessages: string[] }
    if (userMessages.length === 0) return null
    return (
      <div class="msg msg-reminder" data-testid="chat-received">
        <div class="msg-head">the server's model received {userMessages.length === 1 ? 'a reminder' : `${userMessages.length} reminders`}</div>
        {userMessages.map((text) => (
          <pre class="text" key={text}>
            {text}
          </pre>
        ))}
      </div>
    )
  }
  return null
}

export function ChatView({ messages }: { messages: readonly UIMessage[] }) {
  return (
    <div class="messages" data-testid="chat-messages">
      {messages.map((message) => (
        <div class={`msg msg-${message.role}`} key={message.id} data-testid="chat-message" data-role={message.role}>
          <div class="msg-head">{message.role}</div>
          {message.parts.map((part, i) => (
            // The parts of one message never move: their index is their identity.
            <PartView part={part} key={i} />
          ))}
        </div>
      ))}
    </div>
  )
}
