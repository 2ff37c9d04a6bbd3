// `npm start` (after the build): serves the built playground on http://localhost:5173 (PORT
// overrides, HOST too) and says where the built extension is, to load it unpacked.
import { createServer } from 'node:http'
import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(import.meta.url), '../..')
const dist = resolve(process.env.RTG_DIST_DIR ?? join(root, 'dist'))
const site = join(dist, 'playground')
const extension = join(dist, 'extension')
const host = process.env.HOST ?? 'localhost'
const port = Number(process.env.PORT ?? 5173)

if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a port number (0-65535), got "${process.env.PORT}"`)
if (!existsSync(join(site, 'index.html'))) fail(`no built playground at ${site}: run npm run build (or npm start) first`)

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
}

function fail(message) {
  console.error(`serve: ${message}`)
  process.exit(1)
}

/** The file under `site` a URL path names, or undefined when it would leave the site. */
function fileFor(pathname) {
  const file = resolve(site, `.${pathname}`)
  return file === site || file.startsWith(site + sep) ? file : undefined
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost')
  // The scripted model answers in the page's service worker; a request that reaches the server
  // means the worker is not running there yet.
  if (req.method === 'POST' && url.pathname.endsWith('/v1/chat/completions')) {
    res.writeHead(503, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { message: "The scripted model runs in the playground's service worker, which did not answer: reload the page.", type: 'unavailable' } }))
    return
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end()
    return
  }
  let file
  try {
    file = fileFor(decodeURIComponent(url.pathname))
  } catch {
    file = undefined
  }
  if (!file) {
    res.writeHead(400).end('bad path')
    return
  }
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html')
    const body = await readFile(file)
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' })
    res.end(req.method === 'HEAD' ? undefined : body)
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found')
  }
})

server.on('error', (error) => {
  if (error.code === 'EADDRINUSE') fail(`port ${port} is in use: choose another, e.g. PORT=${port + 1} npm start`)
  fail(error.message)
})

server.listen(port, host, () => {
  const { port: actual } = server.address()
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  console.log(`Repeat Tool Guard playground: http://${shown}:${actual}/`)
  console.log(
    existsSync(join(extension, 'manifest.json'))
      ? `Extension: ${extension} (load it unpacked at chrome://extensions with Developer mode on, then reload the playground)`
      : `Extension: not built at ${extension} (run npm run build)`,
  )
})

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  })
