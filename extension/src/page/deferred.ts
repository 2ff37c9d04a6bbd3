// The page script's on-demand half (on-demand.ts). Imported here as any module is; the build
// replaces this file with one that wraps the separately bundled half in a function and runs it on
// the first call of `onDemand()` (scripts/build.mjs), handing it the exports of the modules the
// start-up half loaded at document_start (engine/intrinsics.ts, engine/stringifiers.ts): that
// half's engine calls the built-ins captured then, never ones captured late, and the serialiser
// made with them.
import * as onDemandHalf from './on-demand.ts'

export const onDemand = (): typeof onDemandHalf => onDemandHalf
