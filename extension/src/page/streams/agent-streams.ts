// Agents whose loop runs on the server (docs/zero-code.md, "Agents whose loop runs on the server"):
// a request that may be an AI SDK UI chat request or an AG-UI run has its response followed, and
// one whose headers say it is that protocol's event stream is read as the page reads it
// (responses/watch.ts: never teed, never read ahead, the page's cancel reaches the network). Its
// text goes to the wire guard's reading of the stream, whose events reach the panel as the page
// reads them. Any other response, and every response of any other request, is left the browser's:
// never adopted, never read. Part of the on-demand half.
import type { AgentStreamProtocol } from '../../../../engine/wire/index.ts'
import type { BodySink } from '../responses/body-watcher.ts'
import type { ResponseHeader, ResponseWatch } from '../responses/watch.ts'
import type { Analysed, StreamReport, WireAnalysis } from '../wire/analysis.ts'
import { type StreamCandidates, streamProtocol } from './recognise.ts'

export interface AgentStreams {
  /**
   * Follows the response of a request the analysis saw (whatever the origin's setting but off),
   * whose body may be an agent-stream request (`candidates`, from recognise.ts). Never throws.
   */
  follow(response: Promise<Response>, analysed: Analysed, candidates: StreamCandidates, watch: ResponseWatch): void
}

/** The text of the stream, as the page reads it, to the wire guard's reading. */
function sinkOf(report: StreamReport): BodySink {
  return {
    chunk(text) {
      if (text.length > 0) report.push(text)
      return true
    },
    end: () => report.end(false),
    cut: () => report.end(true),
    // Failed (the page's abort, a network error): the run ends where the page's reading did.
    fail: () => report.end(true),
  }
}

export function createAgentStreams(analysis: WireAnalysis): AgentStreams {
  function opener(analysed: Analysed, protocol: AgentStreamProtocol): (() => BodySink) | undefined {
    const report = analysis.openStream(analysed.text, protocol, analysed.url)
    return report && (() => sinkOf(report))
  }

  return {
    follow(response, analysed, candidates, watch) {
      try {
        watch.watchWhen(response, (header: ResponseHeader) => {
          const protocol = streamProtocol(candidates, header)
          return protocol && opener(analysed, protocol)
        })
      } catch {
        // The response goes to the page as the browser gave it; the guard does not see it.
      }
    },
  }
}
