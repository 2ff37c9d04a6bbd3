// What the page script needs only once a page has an agent (or is asked about one): everything
// that builds the engine, the wire guard and the relay traffic. Reached through `onDemand()`
// (deferred.ts) only, so the build can keep it from running at document_start.
export { createWireGuard } from '../../../engine/wire/index.ts'
export { startActivePage } from './active-page.ts'
