// Most events of an agent stream are text (deltas of the answer), read by the page and never by
// the guard; telling them apart must cost next to nothing, as the whole stream passes this way.

/** How the AI SDK and AG-UI write an event: `JSON.stringify` of an object made with its type first. */
const TYPE_FIRST = '{"type":"'

/**
 * Whether an event's data may be of a type that starts with one of `types`: where the type is
 * written first, only its start is read; anywhere in the text otherwise (a server may order its
 * keys another way).
 */
export function mayBeOfType(data: string, types: readonly string[]): boolean {
  // Plain loops: this runs for every event of the stream, and a closure per event costs more than the test.
  if (data.startsWith(TYPE_FIRST)) {
    for (let i = 0; i < types.length; i++) if (data.startsWith(types[i]!, TYPE_FIRST.length)) return true
    return false
  }
  for (let i = 0; i < types.length; i++) if (data.includes(types[i]!)) return true
  return false
}
