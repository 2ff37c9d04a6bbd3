// The OpenAI Responses answers a page fetches, in Firefox ESR with the built Firefox extension and
// in a Firefox without it (response-reading-suite.ts says what is tested). Firefox reads a body
// the page never reads to its end whether the extension is there or not, so that case is
// Chromium's alone (wire/response-streams.test.ts).
import type { Page } from 'puppeteer-core'
import { afterAll, beforeAll } from 'vitest'
import type { BigStream } from '../support/big-stream.ts'
import { launchFirefox, type Firefox } from '../support/firefox.ts'
import { mountMockLlm, type MockLlm } from '../support/mock-llm.ts'
import { serve, type TestServer } from '../support/server.ts'
import { installPageReading } from '../wire/pages/response-reads.ts'
import { describeResponseReading, routeResponseReading, type Which } from '../wire/response-reading-suite.ts'

let server: TestServer
let mock: MockLlm
let big: BigStream
const browsers = {} as Record<Which, Firefox>
const pages = {} as Record<Which, Page>

beforeAll(async () => {
  server = await serve([])
  // Firefox reads on for a while after a page cancels, with or without the extension: on a busy
  // two-core machine up to about 3 MB. "Far short" is a sixteenth of the body, 16 MiB here.
  big = routeResponseReading(server, 256 * 1024 * 1024)
  mock = mountMockLlm(server)
  ;[browsers.extension, browsers.plain] = await Promise.all([launchFirefox(), launchFirefox({ extension: false })])
  for (const which of ['extension', 'plain'] as const) {
    pages[which] = await browsers[which].newPage()
    await pages[which].goto(`${server.origin}/blank`, { waitUntil: 'domcontentloaded' })
    await pages[which].evaluate(installPageReading)
  }
})

afterAll(async () => {
  await Promise.all(Object.values(browsers).map((browser) => browser.close()))
  await server?.close()
})

// Puppeteer types a page function's argument as it arrives in the page: the same plain values here.
describeResponseReading(() => ({ mock, big, run: (which, fn, arg) => pages[which].evaluate(fn as never, arg) as Promise<never> }))
