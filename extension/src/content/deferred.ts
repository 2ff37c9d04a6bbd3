// The relay's on-demand half (on-demand.ts). Imported here as any module is; the build replaces
// this file with one that wraps the separately bundled on-demand half in a function and runs it on
// the first call of `onDemand()` (scripts/build.mjs): at document_start, a frame pays only for
// reading that code, never for running it.
import * as onDemandHalf from './on-demand.ts'

export const onDemand = (): typeof onDemandHalf => onDemandHalf
