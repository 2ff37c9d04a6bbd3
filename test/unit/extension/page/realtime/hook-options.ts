// What the realtime hooks' tests install a hook with, in a page realm: the realm, the mode the test
// sets on the page, the native look, and the real wire analysis, made on the hook's first ask and
// counted, so a test can tell whether the hook read anything at all.
import { RECOMMENDED_CONFIG } from '../../../../../engine/index.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createWireAnalysis, type WireAnalysis } from '../../../../../extension/src/page/wire/analysis.ts'
import type { PanelEvent } from '../../../../../extension/src/protocol/events.ts'
import type { ZeroCodeMode } from '../../../../../extension/src/protocol/zero-code-mode.ts'

/** The part of a realm page the hook's options read and write. */
export interface HookedPage {
  readonly events: PanelEvent[]
  asked: number
  mode: () => ZeroCodeMode
}

export function hookOptions(target: typeof globalThis, page: HookedPage) {
  let analysis: WireAnalysis | undefined
  return {
    target,
    mode: () => page.mode(),
    showAsNative: createNativeLook(target),
    analysis: () => {
      page.asked++
      return (analysis ??= createWireAnalysis({ config: () => RECOMMENDED_CONFIG, emit: (event) => page.events.push(event), hookSaw: () => false, now: Date.now }))
    },
  }
}
