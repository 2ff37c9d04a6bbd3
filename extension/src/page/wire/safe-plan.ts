// How every transport's hook asks the analysis what to send: never in a way that can fail the
// page's call. Asking may build the on-demand half, and that may fail too: the call then goes as it
// came, and the failure is reported (when even that fails, nothing is).
import type { AgentReach } from '../../protocol/events.ts'
import type { Analysed, Plan, WireAnalysis } from './analysis.ts'

export interface SafePlanner {
  /** The analysis's plan; if even asking for it fails, the call as it came. */
  plan(args: readonly unknown[], analysed: Analysed, withBody: (body: string) => readonly unknown[]): Plan
  /** The call as it came, with the failure reported once it is on its way. */
  failed(args: readonly unknown[], error: unknown): Plan
}

export function createSafePlanner(analysis: () => WireAnalysis, reach: AgentReach): SafePlanner {
  function failed(args: readonly unknown[], error: unknown): Plan {
    try {
      return analysis().failed(args, error, reach)
    } catch {
      return { args, after: () => undefined }
    }
  }

  return {
    plan(args, analysed, withBody) {
      try {
        return analysis().plan(args, analysed, withBody)
      } catch (error) {
        return failed(args, error)
      }
    },
    failed,
  }
}
