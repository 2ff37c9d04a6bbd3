// A watched response for the tests, in Node: a separate realm stands for the page (its Proxy, Object
// and Function.prototype.toString are its own), holding this realm's Response and streams as a page
// holds the browser's.
import vm from 'node:vm'
import type { BodySink } from '../../../../../extension/src/page/responses/body-watcher.ts'
import { createNativeLook } from '../../../../../extension/src/page/native-look.ts'
import { createResponseWatch } from '../../../../../extension/src/page/responses/watch.ts'
import { STREAMS } from './page-streams.ts'

/** Response.prototype's members as this realm has them. */
export const BROWSERS = Object.getOwnPropertyDescriptors(Response.prototype)
/** The members a watched response gets its own stand-ins for. */
export const MEMBERS = ['body', 'bodyUsed', 'clone', 'text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes']

const encoder = new TextEncoder()

function pageRealm() {
  const context = vm.createContext({ ...STREAMS })
  return vm.runInContext('globalThis', context) as typeof globalThis
}

/** A sink that records what it is told; `wanted`: how many pieces it takes before it wants no more. */
export function recordingSink(wanted = Infinity, throwing = false) {
  const told: string[] = []
  let opened = 0
  const sink: BodySink = {
    chunk(text) {
      if (throwing) throw new Error('broken sink')
      told.push(text)
      return told.length < wanted
    },
    end: () => void told.push('<end>'),
    cut: () => void told.push('<cut>'),
    fail: (error) => void told.push(`<fail ${String(error)}>`),
  }
  return { told, opened: () => opened, open: () => (opened++, sink) }
}

/** An endless body that makes a chunk only when pulled, as a network body held back by the browser. */
export function endlessBody() {
  const state = { pulls: 0, cancelled: [] as unknown[] }
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulls++
        controller.enqueue(encoder.encode(`chunk ${state.pulls}\n`))
      },
      cancel: (reason) => void state.cancelled.push(reason),
    },
    { highWaterMark: 0 },
  )
  return { stream, state }
}

/** The response as the page gets it from a watched fetch. */
export async function watched(response: Response, sink = recordingSink(), target = pageRealm()) {
  const watch = createResponseWatch(target, createNativeLook(target))
  const promise = Promise.resolve(response)
  watch.watch(promise, sink.open)
  return { page: await promise, sink, target }
}
