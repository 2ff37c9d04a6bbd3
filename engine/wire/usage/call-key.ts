// How a call in a request's history is matched with the response the page read it in: by its id
// where the format gives one, else (Gemini without ids) by its name and canonical arguments.
import { canonicalArguments } from '../../canonical.ts'

export function callKey(id: unknown, name: unknown, args: unknown): string {
  if (typeof id === 'string' && id !== '') return `id\u0000${id}`
  return `call\u0000${String(name)}\u0000${canonicalArguments(args)}`
}
