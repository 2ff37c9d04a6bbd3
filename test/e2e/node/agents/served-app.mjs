// A Node server whose route runs an agent loop per request, as an app behind a chat page does:
// `node --import <register> served-app.mjs`; `GET /` serves its page, whose button asks for a run;
// `GET /run` runs the AI SDK agent (agents.mjs) against the mock model named by MODEL and answers
// with its run. It prints its port on stdout and stays up until the test ends it. It knows nothing
// of the guard.
import { createServer } from 'node:http'
import { runAgent } from './agents.mjs'

const PAGE = `<!doctype html><meta charset="utf-8"><title>served app</title>
<button id="run">Run the agent</button><pre id="answer"></pre>
<script>
  window.runAgent = () => fetch('/run').then((response) => response.json())
  document.getElementById('run').onclick = async () => {
    document.getElementById('answer').textContent = (await window.runAgent()).answer
  }
</script>`

const server = createServer(async (request, response) => {
  if (request.url === '/') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
  if (request.url !== '/run') return void response.writeHead(404).end()
  try {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await runAgent('aiSdk')))
  } catch (error) {
    response.writeHead(500).end(String(error))
  }
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`))
