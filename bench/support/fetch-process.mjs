// One arm of the Node pass-through bench (bench/node-fetch.bench.ts) as an app runs: a process of
// its own, started with the register entry or without it, that serves and sends requests in the
// same process, as the in-process arms do. It sends `batches` batches of 20 requests of `bytes`
// bytes of JSON (a GET when 0) after `warmUp` requests, and prints each batch's milliseconds per
// request as a JSON array.
import { createServer } from 'node:http'

const [bytes, batches, warmUp] = process.argv.slice(2).map(Number)
const BATCH = 20
const server = createServer((request, response) => {
  request.resume()
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'))
})
await new Promise((listening) => server.listen(0, '127.0.0.1', listening))
const url = `http://127.0.0.1:${server.address().port}/api/x`
const init = bytes === 0 ? undefined : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: 'x'.repeat(bytes) }) }
const send = async () => (await fetch(url, init)).arrayBuffer()
for (let i = 0; i < warmUp; i++) await send()
const times = []
for (let b = 0; b < batches; b++) {
  const start = performance.now()
  for (let i = 0; i < BATCH; i++) await send()
  times.push((performance.now() - start) / BATCH)
}
server.close()
server.closeAllConnections()
process.stdout.write(JSON.stringify(times))
