/**
 * The tab this panel inspects: DevTools' inspected window when the panel runs inside DevTools,
 * else `?tabId=N` (the panel opened as an ordinary tab). Undefined when there is none.
 */
export function inspectedTabId(location: { readonly search: string } = window.location): number | undefined {
  const devtoolsTab = globalThis.chrome?.devtools?.inspectedWindow?.tabId
  if (typeof devtoolsTab === 'number' && devtoolsTab >= 0) return devtoolsTab
  const param = new URLSearchParams(location.search).get('tabId')
  if (param === null || !/^\d+$/.test(param)) return undefined
  const id = Number(param)
  return Number.isSafeInteger(id) ? id : undefined
}
