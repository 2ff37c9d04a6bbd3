// Hand-written validators for every message between contexts and every panel event. Each hop
// runs them on what it receives (the page is hostile and can post anything) and drops, by reason,
// whatever fails: a wrong tag, a wrong protocol version, a size over `LIMITS`, or a wrong shape.
// Shapes are exact: a missing field, a wrong type or an unknown key is a `shape` failure.
// Each hop imports its validators from here; they live by the hop they check, beside the shapes they
// are built from (check-shapes.ts) and the way they run (check-run.ts).
export { checkPanelEvent } from './event-checks.ts'
export { checkContentToPage, checkPageToContent } from './page-relay-checks.ts'
export { checkBackgroundToContent, checkBackgroundToRelay, checkContentToBackground } from './relay-worker-checks.ts'
export { checkBackgroundToPanel, checkPanelToBackground } from './panel-checks.ts'
export { checkBackgroundToPopup, checkPopupToBackground, checkTabSummary } from './popup-checks.ts'
export { checkBridgeToClient, checkClientToBridge } from './bridge-checks.ts'
