// The stage both replaced-built-ins files run on: the extension's fixtures, the page whose built-ins
// are trapped (/traps), and Chromium with WebMCP on.
import { routeHtml } from '../support/server.ts'
import { type Stage, useStage } from '../support/stage.ts'
import { TOOL_INPUT_SCRIPT } from '../webmcp/tool-input.ts'
import { FIXTURES_DIR } from './fixture.ts'

export const useReplacedBuiltinsStage = (): Stage =>
  useStage({
    folder: FIXTURES_DIR,
    routes: (server) => routeHtml(server, '/traps', `<!doctype html><title>Trapped built-ins</title>${TOOL_INPUT_SCRIPT}`),
    launch: { args: ['--enable-features=WebMCP', '--enable-experimental-web-platform-features'] },
  })
