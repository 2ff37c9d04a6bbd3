// After an answer, the user may write again: a new prompt starts the agent's chain over.
import { useState } from 'preact/hooks'

export function FollowUp({ onSend }: { onSend(text: string): void }) {
  const [text, setText] = useState('')
  return (
    <form
      class="follow-up"
      onSubmit={(e) => {
        e.preventDefault()
        if (text.trim() === '') return
        onSend(text.trim())
        setText('')
      }}
    >
      <input type="text" data-testid="follow-up" value={text} placeholder="Write to the agent again (its chain starts over)" onInput={(e) => setText(e.currentTarget.value)} />
      <button type="submit" data-testid="send">
        Send
      </button>
    </form>
  )
}
