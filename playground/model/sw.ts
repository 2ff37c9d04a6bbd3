// The scripted model, served by a service worker in the playground's own origin: the page's
// requests to `<base>/v1/chat/completions` still leave through the page's fetch (where the
// extension watches them) and are answered here, so the static build needs no server code.
import { API_ROOT } from './endpoint.ts'
import { listModels, respond, type ModelAnswer } from './respond.ts'
import { respondUiChat, UI_CHAT_ROUTE } from './ui-chat.ts'

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

async function bodyOf(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text())
  } catch {
    return undefined
  }
}

const complete = async (request: Request): Promise<Response> => json(respond(await bodyOf(request)))

/** The scripted chat server of server-loop.html: `?tools=server` or `?tools=client`. */
async function chat(request: Request, tools: string | null): Promise<Response> {
  return respondUiChat(await bodyOf(request), tools === 'client' ? 'client' : 'server')
}

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url)
  if (url.origin !== api.origin || !url.pathname.startsWith(api.pathname)) return
  const route = url.pathname.slice(api.pathname.length)
  if (route === 'chat/completions' && event.request.method === 'POST') event.respondWith(complete(event.request))
  else if (route === UI_CHAT_ROUTE && event.request.method === 'POST') event.respondWith(chat(event.request, url.searchParams.get('tools')))
  else if (route === 'models' && event.request.method === 'GET') event.respondWith(Promise.resolve(json({ status: 200, body: listModels() })))
})
