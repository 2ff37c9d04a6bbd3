/** How the panel receives events; shown in the status bar. */
export type ConnectionState =
  /** Fed directly by an embedding page (the playground); nothing to connect. */
  | { readonly kind: 'inline' }
  | { readonly kind: 'connecting' }
  | { readonly kind: 'live' }
  /** The port closed (the service worker stopped); a new one is tried after `retryInMs`. */
  | { readonly kind: 'reconnecting'; readonly attempt: number; readonly retryInMs: number }
  /** No tab to inspect: opened outside DevTools without `?tabId=N`. */
  | { readonly kind: 'no-tab' }
