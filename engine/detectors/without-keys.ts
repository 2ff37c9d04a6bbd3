// `ignoreResultKeys` at work: the keys are cut out of the content's canonical form, a compact
// JSON text (keys sorted, no white space), and not out of the content itself. That text is plain
// JSON whatever the page handed over (getters, proxies, cycles), so reading it again is safe, and
// what is left is the canonical form of the content without those keys: every other byte stays,
// numbers keep their digits, and a JSON string is never read as the JSON it may hold.
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, JsonText, OPEN_BRACE, OPEN_BRACKET } from '../json-text.ts'
import { setHas, stringCharCodeAt, stringSlice } from '../intrinsics.ts'

/** `canonical` without the members named in `ignored`, at any depth. */
export function withoutKeys(canonical: string, ignored: ReadonlySet<string>): string {
  const first = stringCharCodeAt(canonical, 0)
  // A string, number, literal or `undefined`: nothing has keys.
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return canonical
  const cutter = new KeyCutter(new JsonText(canonical), ignored)
  cutter.value(0)
  return cutter.result()
}

class KeyCutter {
  /** The text before `from`, with the cuts made so far. */
  private kept = ''
  private from = 0

  constructor(
    private readonly json: JsonText,
    private readonly ignored: ReadonlySet<string>,
  ) {}

  /** Steps over the value at `at`, cutting the ignored members inside it; returns its end. */
  value(at: number): number {
    const first = this.json.at(at)
    if (first === OPEN_BRACE) return this.object(at + 1)
    if (first === OPEN_BRACKET) return this.array(at + 1)
    return this.json.valueEnd(at)
  }

  result(): string {
    return this.kept + stringSlice(this.json.text, this.from)
  }

  private array(at: number): number {
    if (this.json.at(at) === CLOSE_BRACKET) return at + 1
    for (;;) {
      const end = this.value(at)
      if (this.json.at(end) !== COMMA) return end + 1
      at = end + 1
    }
  }

  private object(at: number): number {
    const { json } = this
    if (json.at(at) === CLOSE_BRACE) return at + 1
    let anyKept = false
    for (;;) {
      const nameEnd = json.stringEnd(at)
      const ignored = setHas(this.ignored, json.name(at, nameEnd))
      // Past the colon.
      const end = ignored ? json.valueEnd(nameEnd + 1) : this.value(nameEnd + 1)
      const more = json.at(end) === COMMA
      // A member goes with the comma before it; while none is kept, with the comma after it.
      if (ignored) this.cut(anyKept ? at - 1 : at, anyKept || !more ? end : end + 1)
      else anyKept = true
      if (!more) return end + 1
      at = end + 1
    }
  }

  private cut(start: number, end: number): void {
    this.kept += stringSlice(this.json.text, this.from, start)
    this.from = end
  }
}
