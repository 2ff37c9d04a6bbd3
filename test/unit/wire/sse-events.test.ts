// Server-sent events read in pieces (engine/wire/sse-events.ts) give what the HTML standard's
// event stream parsing gives the whole text at once, for every split: checked against a reference
// written from the standard, over generated streams with every line ending and field it names.
import { expect, it } from 'vitest'
import { createSseEvents } from '../../../engine/wire/sse-events.ts'
import { seeded } from './agent-streams/split.ts'

/** The standard's parsing of a whole stream, `data` only: the events a listener would get. */
function reference(text: string): string[] {
  const events: string[] = []
  let buffer = ''
  // Only whole lines: a line the stream ends inside is no line.
  const lines = text.split(/\r\n|\r|\n/)
  lines.pop()
  for (const line of lines) {
    if (line === '') {
      if (buffer !== '') events.push(buffer.slice(0, -1))
      buffer = ''
      continue
    }
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    let value = colon < 0 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') buffer += `${value}\n`
  }
  return events
}

const ENDS = ['\n', '\r\n', '\r']
const LINES = ['data: {"type":"start"}', 'data:{"a":1}', 'data', 'data:', 'data:  two spaces', 'event: message', 'id: 7', ': a comment', 'database: not data', 'retry: 10', 'data: ü😀 text']

function stream(random: () => number): string {
  let text = ''
  for (let i = 0; i < 40; i++) {
    const end = ENDS[Math.floor(random() * ENDS.length)]!
    text += random() < 0.3 ? end : LINES[Math.floor(random() * LINES.length)]! + end
  }
  // A last \r could still be the first half of a \r\n: the stream ends past it.
  return `${text}\n`
}

function inPieces(text: string, random: () => number, max: number): string[] {
  const events: string[] = []
  const sse = createSseEvents((data) => events.push(data))
  for (let at = 0; at < text.length; ) {
    const size = 1 + Math.floor(random() * max)
    sse.push(text.slice(at, at + size))
    at += size
  }
  return events
}

it('gives the events the standard gives the whole text, whatever the pieces and the line endings', () => {
  for (let seed = 1; seed <= 400; seed++) {
    const random = seeded(seed)
    const text = stream(random)
    expect(inPieces(text, random, 1 + (seed % 30)), `seed ${seed}`).toEqual(reference(text))
  }
})

it('reads a line that spans many pieces, and forgets what is buffered when cleared', () => {
  const events: string[] = []
  const sse = createSseEvents((data) => events.push(data))
  const long = 'x'.repeat(100_000)
  sse.push('data: ')
  for (let i = 0; i < long.length; i += 1_000) sse.push(long.slice(i, i + 1_000))
  sse.push('\r')
  sse.push('\n\r\n')
  expect(events).toEqual([long])
  sse.push('data: half')
  sse.clear()
  sse.push('\n\ndata: next\n\n')
  expect(events).toEqual([long, 'next'])
})
