// The scripted model, served by a service worker in the playground's own origin: the page's
// requests to `<base>/v1/chat/completions` still leave through the page's fetch (where the
// extension watches them) and are answered here, so the static build needs no server code.
import { API_ROOT } from './endpoint.ts'
import { listModels, respond, type ModelAnswer } from './respond.ts'

// The WebWorker lib cannot be combined with the DOM lib the rest of the project uses: the few
// service-worker types needed here are declared locally.
interface LifecycleEvent extends Event {
  waitUntil(work: Promise<unknown>): void
}
interface RequestEvent extends Event {
  readonly request: Request
  respondWith(response: Promise<Response>): void
}
interface WorkerScope {
  readonly registration: { readonly scope: string }
  readonly clients: { claim(): Promise<void> }
  skipWaiting(): Promise<void>
  addEventListener(type: 'install' | 'activate', listener: (event: LifecycleEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: RequestEvent) => void): void
  addEventListener(type: 'message', listener: (event: LifecycleEvent & { readonly data: unknown }) => void): void
}

const worker = self as unknown as WorkerScope
const api = new URL(`${API_ROOT}/`, worker.registration.scope)

// A new build takes over at once: the model is stateless, nothing is lost.
worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()))
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()))
// A page loaded past the worker (hard reload) asks to be taken over.
worker.addEventListener('message', (event) => {
  if (event.data === 'claim') event.waitUntil(worker.clients.claim())
})

const json = (answer: ModelAnswer) => new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } })

async function complete(request: Request): Promise<Response> {
  let body: unknown
  try {
    body = JSON.parse(await request.text())
  } catch {
    body = undefined
  }
  return json(respond(body))
}

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url)
  if (url.origin !== api.origin || !url.pathname.startsWith(api.pathname)) return
  const route = url.pathname.slice(api.pathname.length)
  if (route === 'chat/completions' && event.request.method === 'POST') event.respondWith(complete(event.request))
  else if (route === 'models' && event.request.method === 'GET') event.respondWith(Promise.resolve(json({ status: 200, body: listModels() })))
})
