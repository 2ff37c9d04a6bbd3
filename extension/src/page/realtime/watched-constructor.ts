// A realtime transport's constructor (`WebSocket`, `RTCPeerConnection`) as the page gets it: a
// Proxy over the native one that hands each new instance to the hook once it is made.
import { asNativeThrew } from '../native-errors.ts'

type Constructor = new (...args: unknown[]) => object

// Taken when this module loads, at document_start with the page script.
const construct = Reflect.construct

/**
 * `Native` behind a Proxy whose instances go to `watch` with the arguments they were made with.
 * A subclass the page makes of the Proxy constructs as itself; what the native constructor
 * throws reaches the page as the native's own error (native-errors.ts).
 */
export function watchedConstructor(Native: Constructor, watch: (instance: object, args: unknown[]) => void): Constructor {
  function constructTrap(_native: unknown, args: unknown[], newTarget: Constructor): object {
    let instance: object
    try {
      instance = construct(Native, args, newTarget === intercepted ? Native : newTarget) as object
    } catch (error) {
      throw asNativeThrew(error, args, constructTrap)
    }
    watch(instance, args)
    return instance
  }
  const intercepted = new Proxy<Constructor>(Native, { construct: constructTrap })
  return intercepted
}
