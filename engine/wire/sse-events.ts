// Server-sent events as their text arrives in pieces (any split, also inside a line or between
// the two characters of a `\r\n`): each event's `data` lines, joined with `\n`, handed on when the
// blank line that ends the event is read. Only the `data` field is read: every stream read here
// (OpenAI Responses, the AI SDK's UI message stream, AG-UI) says everything in it.
//
// Read once, as the page reads it, so it must cost little next to the page's own reading
// (docs/zero-code.md, "Agents whose loop runs on the server"): lines are found with `indexOf`,
// a line that is no `data` line is skipped where it lies, a data line is cut from the text once,
// and a line that spans many pieces is searched piece by piece, never again from its start.
// Servers end lines with `\n`; a piece holding `\r` is made so first.

export interface SseEvents {
  /** The next piece of the body's text. */
  push(text: string): void
  /** Forgets what is buffered: a line or an event not yet ended. */
  clear(): void
}

const COLON = 0x3a
const SPACE = 0x20
const RETURN = 0x0d
const CR_LINE_END = /\r\n?/g

/** `onData` gets each event's data, in order; an event the body ends inside is never handed on. */
export function createSseEvents(onData: (data: string) => void): SseEvents {
  /** The line not yet ended, without the `\r` held back. */
  let pending = ''
  /** The last piece ended with `\r`: the first half of a `\r\n`, or a line end of its own. */
  let heldReturn = false
  /** The data of the event being read; undefined before its first data line. */
  let data: string | undefined

  /** The line from `start` to `end` (its line end) of `text`. */
  function line(text: string, start: number, end: number): void {
    if (start === end) {
      const event = data
      data = undefined
      // An event with no data line is none; one with an empty data line is an empty event.
      if (event !== undefined) onData(event)
      return
    }
    if (!text.startsWith('data', start)) return
    // `data` alone is a data line with an empty value; `database: x` is another field.
    let from = start + 4
    if (from < end) {
      if (text.charCodeAt(from) !== COLON) return
      from += text.charCodeAt(from + 1) === SPACE ? 2 : 1
    }
    const value = from < end ? text.slice(from, end) : ''
    data = data === undefined ? value : `${data}\n${value}`
  }

  return {
    push(piece) {
      let text = heldReturn ? `\r${piece}` : piece
      heldReturn = false
      if (text.includes('\r')) {
        if (text.charCodeAt(text.length - 1) === RETURN) {
          heldReturn = true
          text = text.slice(0, -1)
        }
        text = text.replace(CR_LINE_END, '\n')
      }
      let end = text.indexOf('\n')
      if (end < 0) {
        pending += text
        return
      }
      let at = 0
      if (pending !== '') {
        const first = pending + text.slice(0, end)
        pending = ''
        line(first, 0, first.length)
        at = end + 1
        end = text.indexOf('\n', at)
      }
      for (; end >= 0; end = text.indexOf('\n', at)) {
        line(text, at, end)
        at = end + 1
      }
      pending = text.slice(at)
    },
    clear() {
      pending = ''
      heldReturn = false
      data = undefined
    },
  }
}
