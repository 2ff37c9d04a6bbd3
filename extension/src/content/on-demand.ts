// What the relay needs only once the page has spoken, or a panel asks about it: the checks, the
// port, the stored settings. Reached through `onDemand()` (deferred.ts) only, so the build can keep
// it from running at document_start.
export { startBridge } from './bridge.ts'
export { wakePage } from './wake.ts'
