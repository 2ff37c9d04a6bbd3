// Server-sent events as their text arrives in pieces (any split, also inside a line or between
// the two characters of a `\r\n`): each event's `data` lines, joined with `\n`, handed on when the
// blank line that ends the event is read. Only the `data` field is read: every stream read here
// (OpenAI Responses, the AI SDK's UI message stream, AG-UI) says everything in it.

export interface SseEvents {
  /** The next piece of the body's text. */
  push(text: string): void
  /** Forgets what is buffered: a line or an event not yet ended. */
  clear(): void
}

const LINE_END = /\r\n|\r|\n/

/** `onData` gets each event's data, in order; an event the body ends inside is never handed on. */
export function createSseEvents(onData: (data: string) => void): SseEvents {
  /** The line not yet ended. */
  let pending = ''
  /** The data lines of the event being read. */
  let data: string[] = []

  function line(text: string): void {
    if (text === '') {
      if (data.length > 0) onData(data.join('\n'))
      data = []
      return
    }
    const colon = text.indexOf(':')
    if (colon < 0 || text.slice(0, colon) !== 'data') return
    const value = text.slice(colon + 1)
    data.push(value.startsWith(' ') ? value.slice(1) : value)
  }

  return {
    push(text) {
      pending += text
      // A `\r` at the end may be the first half of a `\r\n` still on its way.
      const held = pending.endsWith('\r') ? 1 : 0
      const lines = pending.slice(0, pending.length - held).split(LINE_END)
      pending = lines.pop()! + (held ? '\r' : '')
      for (const each of lines) line(each)
    },
    clear() {
      pending = ''
      data = []
    },
  }
}
