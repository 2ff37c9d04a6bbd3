// The engine benchmark's page: the observe cases of bench/support/observe-ratios.ts, timed by
// Chromium. bench/engine.bench.ts builds this page, opens it and prints the rows.
import { canonicalArguments, createRepeatToolGuard } from '../../engine/index.ts'
import { stringify as serialiser } from '../../engine/stringifiers.ts'
import { observeRatios } from '../support/observe-ratios.ts'

declare global {
  interface Window {
    runObserveRatios: (where: string) => ReturnType<typeof observeRatios>
  }
}
window.runObserveRatios = (where) => observeRatios({ createRepeatToolGuard, canonicalArguments, serialiser }, where)
