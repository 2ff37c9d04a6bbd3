// The inspected page's address, asked of DevTools: the panel needs it before the page sends
// anything (a page with no agent of its own sends nothing) to know whether to attach to a Node
// process (bridge-ports.ts). Outside DevTools (the panel in a tab) it is unknown.
export function inspectedPageUrl(): Promise<string | undefined> {
  const inspected = globalThis.chrome?.devtools?.inspectedWindow
  if (inspected === undefined) return Promise.resolve(undefined)
  return new Promise((done) => inspected.eval<string>('location.href', (...[result]) => done(typeof result === 'string' ? result : undefined)))
}
