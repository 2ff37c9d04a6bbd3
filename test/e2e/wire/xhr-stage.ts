// The stage of the XHR tests (xhr.test.ts, xhr-traffic.test.ts): the server with the page of
// pages/xhr-agents.ts and the /xhr/ routes the page's other XHR traffic calls, another origin for
// its cross-origin requests, and the page opened in either browser.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import type { Browser } from '../support/browser.ts'
import { openReportingPage } from '../support/page-events.ts'
import { serve, type TestServer } from '../support/server.ts'
import { type Stage, useStage } from '../support/stage.ts'
import { buildAgentPages } from './pages/build.ts'

/** What the server got on the /xhr/ routes, byte for byte; `closedEarly`: the client hung up before an answer. */
export const received: { url: string; headers: IncomingMessage['headers']; body: Buffer; closedEarly?: boolean }[] = []

function xhrRoutes(req: IncomingMessage, res: ServerResponse, body: Buffer): boolean {
  const url = req.url ?? '/'
  if (!url.startsWith('/xhr/')) return false
  const record: (typeof received)[number] = { url, headers: req.headers, body }
  received.push(record)
  const path = url.split('?')[0]
  if (path === '/xhr/hang') {
    // Never answers: only an abort ends it.
    res.on('close', () => (record.closedEarly = !res.writableEnded))
  } else if (path === '/xhr/json') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":[1,2,{"b":"c"}],"s":"\u00e9\u2713"}')
  } else if (path === '/xhr/bytes') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(Array.from({ length: 256 }, (_, i) => i)))
  } else if (path === '/xhr/xml') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('<root><a/></root>')
  } else if (path === '/xhr/slow') {
    const chunk = 'x'.repeat(16_384)
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(chunk.length * 12) })
    let sent = 0
    const next = () => (++sent === 12 ? res.end(chunk) : (res.write(chunk), setTimeout(next, 15)))
    next()
  } else if (path === '/xhr/cors') {
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': req.headers.origin ?? '*', 'access-control-allow-credentials': 'true' })
    res.end(`cookie: ${req.headers.cookie ?? 'none'}`)
  } else {
    const { 'content-type': contentType, 'x-custom': custom, accept } = req.headers
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, contentType, custom, accept, body: body.toString('utf8') }))
  }
  return true
}

export const READ = { name: 'read_file', args: { path: 'notes.txt' } }

/** Registers the stage with the test file (and a browser without the extension, if `plain`); the page's opener. */
export function useXhrStage(plain: boolean): { stage: Stage; openPage(browser: Browser): Promise<Page> } {
  const stage = useStage({ pages: () => buildAgentPages('xhr-agents'), routes: (server) => server.route(xhrRoutes), ...(plain ? { plain: true as const } : {}) })
  /** Another origin, for the page's cross-origin requests. */
  let other: TestServer

  beforeAll(async () => {
    other = await serve([])
    other.route(xhrRoutes)
  })

  afterAll(() => other?.close())

  /** The page, with a way to read what it reported towards the panel. */
  async function openPage(browser: Browser): Promise<Page> {
    const page = await openReportingPage(browser, `${stage.server.origin}/xhr-agents.html`, 'agents')
    await page.evaluate((otherOrigin) => {
      Object.assign(window, { otherOrigin })
      // biome-ignore lint/suspicious/noDocumentCookie: the page's own cookie, set as a page sets it
      document.cookie = 'session=s1; path=/'
    }, other.origin)
    return page
  }
  return { stage, openPage }
}
