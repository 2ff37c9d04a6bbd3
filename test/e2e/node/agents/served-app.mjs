// A Node server whose route runs an agent loop per request, as an app behind a chat page does:
// `node --import <register> served-app.mjs`; `GET /run` runs the AI SDK agent (agents.mjs) against
// the mock model named by MODEL and answers with its run. It prints its port on stdout and stays up
// until the test ends it. It knows nothing of the guard.
import { createServer } from 'node:http'
import { runAgent } from './agents.mjs'

const server = createServer(async (request, response) => {
  if (request.url !== '/run') return void response.writeHead(404).end()
  try {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await runAgent('aiSdk')))
  } catch (error) {
    response.writeHead(500).end(String(error))
  }
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`))
