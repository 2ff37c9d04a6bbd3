// The page script's on-demand half (on-demand.ts). Imported here as any module is; the build
// replaces this file with one that wraps the separately bundled half in a function and runs it on
// the first call of `onDemand(...)` (scripts/build.mjs), handing it the modules the start-up half
// loaded at document_start: that half's engine calls the built-ins captured then, never ones
// captured late, and the serialiser made with them.
import type * as intrinsics from '../../../engine/intrinsics.ts'
import type * as stringifiers from '../../../engine/stringifiers.ts'
import * as onDemandHalf from './on-demand.ts'

interface Handed {
  readonly intrinsics: typeof intrinsics
  readonly stringifiers: typeof stringifiers
}

export const onDemand = (_handed: Handed): typeof onDemandHalf => onDemandHalf
