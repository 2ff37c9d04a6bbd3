// Makes sure the scripted model (model/sw.ts) controls this page before the agent calls it.

const WAIT_MS = 10_000

export async function ensureScriptedModel(container: ServiceWorkerContainer | undefined = globalThis.navigator?.serviceWorker): Promise<void> {
  if (!container)
    throw new Error('The scripted model runs in a service worker, which this page cannot use: open the playground from http://localhost (npm start) or https, or use an OpenAI-compatible endpoint.')
  const registration = await container.register('./sw.js', { scope: './' })
  if (container.controller) return
  const controlled = new Promise<void>((resolve) => container.addEventListener('controllerchange', () => resolve(), { once: true }))
  // A hard reload bypasses an active worker: ask it to take the page over again.
  ;(await container.ready).active?.postMessage('claim')
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the scripted model's service worker (${registration.scope}sw.js) did not take control of the page; reload the page`)), WAIT_MS)
  })
  try {
    await Promise.race([controlled, timeout])
  } finally {
    clearTimeout(timer)
  }
}
