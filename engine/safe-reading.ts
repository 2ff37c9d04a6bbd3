// A public entry of the engine for code that reads values it does not trust the way the engine
// does: a thrown value's message, a text's head cut on a character boundary, an object record. It
// reaches nothing but the captured built-ins, so the content scripts' start-up halves may import it
// without taking in the rest of the engine (docs/architecture.md, "The engine's public entries").
export { errorText } from './error-text.ts'
export { headOf } from './text-head.ts'
export { isRecord } from './records.ts'
