// The page script's on-demand half (on-demand.ts). Imported here as any module is; the build
// replaces this file with one that wraps the separately bundled half in a function and runs it on
// the first call of `onDemand(intrinsics)` (scripts/build.mjs), handing it the built-ins this half
// captured at document_start: that half's engine calls those, never ones captured late.
import type * as Intrinsics from '../../../engine/intrinsics.ts'
import * as onDemandHalf from './on-demand.ts'

export const onDemand = (_intrinsics: typeof Intrinsics): typeof onDemandHalf => onDemandHalf
