// An empty page at `/blank` for tests that drive fetch from page.evaluate: the extension's
// scripts only run on http(s) pages.
import { routeHtml, type TestServer } from '../support/server.ts'

export const routeBlankPage = (server: TestServer): void => routeHtml(server, '/blank', '<!doctype html><title>blank</title>')
