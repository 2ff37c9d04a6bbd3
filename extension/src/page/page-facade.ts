// What `window.__REPEAT_TOOL_GUARD__` is from document_start on: a frozen object whose methods hand
// every call to the page guard (page-api.ts), built by the first call. Calls go through as they
// came (arguments, `this` dropped, what is thrown or returned), so the page sees the guard itself.
import { callFunction, freeze } from '../../../engine/intrinsics.ts'
import type { PageGuard } from './page-api.ts'

type Method = Exclude<keyof PageGuard, 'version' | 'config'>

export function createPageFacade(version: number, guard: () => PageGuard): PageGuard {
  const forward =
    <M extends Method>(name: M) =>
    (...args: Parameters<PageGuard[M]>): ReturnType<PageGuard[M]> =>
      callFunction(guard()[name], undefined, args) as ReturnType<PageGuard[M]>
  return freeze({
    version,
    observe: forward('observe'),
    postExecute: forward('postExecute'),
    promptSubmit: forward('promptSubmit'),
    preExecute: forward('preExecute'),
    configure: forward('configure'),
    subscribe: forward('subscribe'),
    snapshot: forward('snapshot'),
    get config() {
      return guard().config
    },
  })
}
