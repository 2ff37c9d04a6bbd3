// A model server that streams a long OpenAI Responses answer (server-sent events, as the API sends
// them) and says how much of it it wrote: `response.created` first, then text deltas of about a
// kilobyte each until `total` bytes, written only as fast as the connection takes them (so what
// it wrote is what the client's side read, give or take the sockets' buffers). Each request names
// its run (`?run=`); the run's record says what was written, whether the body was written to its
// end, and when the connection closed. A run that is never read nor closed ends by itself after
// `lifetimeMs`, so no test leaves the server busy.
import type { ServerResponse } from 'node:http'
import type { TestServer } from './server.ts'

export const BIG_STREAM_PATH = '/big/v1/responses'

export interface StreamRun {
  /** Bytes of the body written so far. */
  written: number
  /** The whole body was written. */
  finished: boolean
  /** When the connection closed (the client cancelled, or the body ended), by `performance.now()`. */
  closedAt: number | undefined
}

export interface BigStream {
  readonly total: number
  /** The run's record; undefined before its request arrived. */
  run(id: string): StreamRun | undefined
  /** Resolves once the run's connection closed, with its record. */
  closed(id: string): Promise<StreamRun>
}

const delta = (n: number) =>
  `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', sequence_number: n, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'x'.repeat(900) })}\n\n`

export function routeBigStream(server: TestServer, { total, lifetimeMs = 60_000 }: { total: number; lifetimeMs?: number }): BigStream {
  const runs = new Map<string, StreamRun>()
  const waiting = new Map<string, ((run: StreamRun) => void)[]>()

  async function stream(res: ServerResponse, id: string): Promise<void> {
    const run: StreamRun = { written: 0, finished: false, closedAt: undefined }
    runs.set(id, run)
    const lifetime = setTimeout(() => res.destroy(), lifetimeMs)
    res.on('close', () => {
      clearTimeout(lifetime)
      run.closedAt = performance.now()
      for (const resolve of waiting.get(id) ?? []) resolve(run)
      waiting.delete(id)
    })
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const created = `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: `resp_big_${id}`, object: 'response', status: 'in_progress', output: [] } })}\n\n`
    let n = 1
    for (let piece = created; run.written < total && run.closedAt === undefined; piece = delta(n++)) {
      run.written += Buffer.byteLength(piece)
      // Written no faster than the connection takes it.
      if (!res.write(piece))
        await new Promise<void>((drained) => {
          const done = () => {
            res.off('drain', done)
            res.off('close', done)
            drained()
          }
          res.on('drain', done)
          res.on('close', done)
        })
    }
    if (run.closedAt !== undefined) return
    run.finished = true
    res.end()
  }

  server.route((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method !== 'POST' || url.pathname !== BIG_STREAM_PATH) return false
    void stream(res, url.searchParams.get('run') ?? '')
    return true
  })

  return {
    total,
    run: (id) => runs.get(id),
    closed(id) {
      const run = runs.get(id)
      if (run?.closedAt !== undefined) return Promise.resolve(run)
      return new Promise((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve]))
    },
  }
}
