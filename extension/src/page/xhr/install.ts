// Zero-code mode over XMLHttpRequest (docs/zero-code.md, "XMLHttpRequest"): axios and older SDKs send their LLM requests with
// XHR. open(), setRequestHeader() and send() become Proxies over the native ones: the first two run
// the native method and note what the request said (unsent-requests.ts); send() hands a body that
// may be an LLM request to the shared analysis, with the same cheap checks as fetch, and runs the native
// send once, on the page's XHR, with the body the analysis planned. Every other method, property
// and event of the XHR is the native one, untouched; the native methods' own errors reach the page
// as the native threw them (native-errors.ts). The analysis is synchronous, so a synchronous XHR is
// guarded the same way. Every XHR of the page goes through here: only built-ins captured at
// document_start are called.
import { argument } from '../hook-arguments.ts'
import { asNativeThrew } from '../native-errors.ts'
import type { Plan } from '../wire/analysis.ts'
import { createSafePlanner } from '../wire/safe-plan.ts'
import { createUnsentRequests } from './unsent-requests.ts'
import type { TransportHookOptions } from '../transport-hook.ts'

type Hooked = 'open' | 'setRequestHeader' | 'send'
type Native = (...args: unknown[]) => unknown
type Trap = (native: Native, self: unknown, args: unknown[]) => unknown

/** Hooks the page's XMLHttpRequest; false when it has none, or not the methods it should. */
export function installXhrInterceptor({ target, mode, analysis, showAsNative }: TransportHookOptions): boolean {
  const prototype = (target.XMLHttpRequest as typeof XMLHttpRequest | undefined)?.prototype
  if (!prototype) return false
  const descriptors = {
    open: Object.getOwnPropertyDescriptor(prototype, 'open'),
    setRequestHeader: Object.getOwnPropertyDescriptor(prototype, 'setRequestHeader'),
    send: Object.getOwnPropertyDescriptor(prototype, 'send'),
  }
  for (const descriptor of Object.values(descriptors)) if (typeof descriptor?.value !== 'function') return false
  const apply = target.Reflect.apply
  const unsent = createUnsentRequests(target)
  const { plan, failed } = createSafePlanner(analysis, 'xhr')

  /** Puts a Proxy over the native method in its place, with the same descriptor, printed as native. */
  function hook(name: Hooked, trap: Trap): void {
    const descriptor = descriptors[name]!
    const native = descriptor.value as Native
    // The trap is the handler's own apply (its target is the native method): one stack frame, as fetch's.
    const stand = new Proxy(native, { apply: trap })
    Object.defineProperty(prototype, name, { ...descriptor, value: stand })
    showAsNative(stand, native)
  }

  /**
   * A trap that runs the native method first (when it throws, nothing is noted, and its error is
   * the page's), then notes what it said of the request.
   */
  function noting(note: (xhr: unknown, first: unknown, second: unknown) => void): Trap {
    const trap: Trap = (native, self, args) => {
      let result: unknown
      try {
        result = apply(native, self, args)
      } catch (error) {
        throw asNativeThrew(error, args, trap)
      }
      try {
        note(self, argument(args, 0), argument(args, 1))
      } catch {
        // Not noted: the request goes out unguarded, never broken.
      }
      return result
    }
    return trap
  }

  hook('open', noting(unsent.opened))
  hook('setRequestHeader', noting(unsent.header))

  const sendTrap: Trap = (send, self, args) => {
    let planned: Plan | undefined
    try {
      const current = mode()
      // Off: the body is not even looked at; the record is taken all the same (this request is sent).
      const candidate = unsent.sending(self, current === 'off' ? undefined : argument(args, 0))
      if (candidate && current !== 'off') planned = plan(args, { text: candidate.text, url: candidate.url, keepalive: false, mode: current, reach: 'xhr' }, (body) => [body])
    } catch (error) {
      planned = failed(args, error)
    }
    const sent = planned ? (planned.args as unknown[]) : args
    // The native send runs exactly once; a synchronous one has finished (its events dispatched) when it returns.
    try {
      return apply(send, self, sent)
    } catch (error) {
      throw asNativeThrew(error, sent, sendTrap)
    } finally {
      try {
        planned?.after()
      } catch {
        // Reporting never fails the call.
      }
    }
  }
  hook('send', sendTrap)
  return true
}
