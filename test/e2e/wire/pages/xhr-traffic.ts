// The page's other XHR traffic, next to the agents of xhr-agents.ts, written once and run with and
// without the extension: what each call did (events, responses, errors) is returned as plain data,
// so a test can compare the two runs.

/**
 * What an XHR did, as data: its events in order, and its end state. How often the browser fires
 * progress (and readyState 3 with it) depends on how the bytes arrive, so a run of those events
 * is kept as each of its names once.
 */
export interface Outcome {
  readonly events: string[]
  readonly status: number
  readonly readyState: number
  readonly response?: unknown
  readonly extra?: unknown
}

const EVENTS = ['loadstart', 'progress', 'load', 'loadend', 'abort', 'error', 'timeout'] as const

const inProgressRun = (name: string) => name === 'readyState 3' || name.endsWith('progress')

/** Records the XHR's events (and its upload's, if `upload`); resolves with them at loadend. */
function watch(xhr: XMLHttpRequest, upload = false): { events: string[]; done: Promise<void> } {
  const events: string[] = []
  /** Whether `name` is already in the run of progress events at the end of the list. */
  const inCurrentRun = (name: string) => {
    for (let i = events.length - 1; i >= 0 && inProgressRun(events[i]!); i--) if (events[i] === name) return true
    return false
  }
  const push = (name: string) => {
    if (!inProgressRun(name) || !inCurrentRun(name)) events.push(name)
  }
  xhr.addEventListener('readystatechange', () => push(`readyState ${xhr.readyState}`))
  for (const type of EVENTS) xhr.addEventListener(type, () => push(type))
  if (upload) for (const type of EVENTS) xhr.upload.addEventListener(type, () => push(`upload ${type}`))
  return { events, done: new Promise((settle) => xhr.addEventListener('loadend', () => settle())) }
}

/** The name, class and message of what `run` throws, or 'nothing thrown'. */
function thrown(run: () => void): string {
  try {
    run()
    return 'nothing thrown'
  } catch (error) {
    const e = error as Error
    return `${e instanceof DOMException ? 'DOMException' : e.constructor.name} ${e.name}: ${e.message}`
  }
}

async function send(
  method: string,
  url: string,
  options: { responseType?: XMLHttpRequestResponseType; body?: XMLHttpRequestBodyInit; headers?: [string, string][]; upload?: boolean; withCredentials?: boolean; mime?: string } = {},
): Promise<{ xhr: XMLHttpRequest; outcome: Outcome }> {
  const xhr = new XMLHttpRequest()
  const { events, done } = watch(xhr, options.upload)
  xhr.open(method, url)
  if (options.responseType) xhr.responseType = options.responseType
  if (options.withCredentials !== undefined) xhr.withCredentials = options.withCredentials
  if (options.mime) xhr.overrideMimeType(options.mime)
  for (const [name, value] of options.headers ?? []) xhr.setRequestHeader(name, value)
  xhr.send(options.body ?? null)
  await done
  return { xhr, outcome: { events, status: xhr.status, readyState: xhr.readyState } }
}

const bytesOf = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer))

/** Every case, by name: each resolves to what the page saw. */
export const behaviours: Record<string, () => Promise<Outcome> | Outcome> = {
  async 'responseType json'() {
    const { xhr, outcome } = await send('GET', '/xhr/json', { responseType: 'json' })
    return { ...outcome, response: xhr.response, extra: [xhr.responseType, xhr.getResponseHeader('content-type')] }
  },
  async 'responseType arraybuffer'() {
    const { xhr, outcome } = await send('GET', '/xhr/bytes', { responseType: 'arraybuffer' })
    return { ...outcome, response: bytesOf(xhr.response as ArrayBuffer), extra: xhr.response instanceof ArrayBuffer }
  },
  async 'responseType text'() {
    const { xhr, outcome } = await send('GET', '/xhr/json', { responseType: 'text' })
    return { ...outcome, response: xhr.responseText, extra: xhr.responseURL }
  },
  async 'responseType blob'() {
    const { xhr, outcome } = await send('GET', '/xhr/bytes', { responseType: 'blob' })
    const blob = xhr.response as Blob
    return { ...outcome, response: bytesOf(await blob.arrayBuffer()), extra: blob.type }
  },
  async 'progress and load events of a long response'() {
    const xhr = new XMLHttpRequest()
    const { events, done } = watch(xhr)
    let last: [boolean, number, number] = [false, 0, 0]
    xhr.addEventListener('progress', (e) => (last = [e.lengthComputable, e.loaded, e.total]))
    xhr.open('GET', '/xhr/slow')
    xhr.send()
    await done
    return { events, status: xhr.status, readyState: xhr.readyState, response: xhr.responseText.length, extra: last }
  },
  async 'upload events of a JSON POST'() {
    const body = JSON.stringify({ event: 'upload', items: Array.from({ length: 2_000 }, (_, i) => ({ id: i })) })
    const { xhr, outcome } = await send('POST', '/xhr/echo', { body, headers: [['Content-Type', 'application/json']], upload: true })
    return { ...outcome, response: JSON.parse(xhr.responseText) }
  },
  async 'request headers as set'() {
    const headers: [string, string][] = [
      ['X-Custom', 'a'],
      ['x-custom', 'b'],
      ['Content-Type', 'application/vnd.api+json'],
      ['Accept', 'application/x-ndjson'],
    ]
    const { xhr, outcome } = await send('POST', '/xhr/echo', { body: '{"hello":"world"}', headers })
    return { ...outcome, response: JSON.parse(xhr.responseText) }
  },
  async overrideMimeType() {
    const plain = await send('GET', '/xhr/xml')
    const { xhr, outcome } = await send('GET', '/xhr/xml', { mime: 'text/xml' })
    const binary = await send('GET', '/xhr/bytes', { mime: 'text/plain; charset=x-user-defined' })
    const chars = Array.from(binary.xhr.responseText, (c) => c.charCodeAt(0) & 0xff)
    return { ...outcome, response: [plain.xhr.responseXML === null, xhr.responseXML?.documentElement.nodeName], extra: chars }
  },
  'synchronous XHR'() {
    const xhr = new XMLHttpRequest()
    const { events } = watch(xhr)
    xhr.open('POST', '/xhr/echo', false)
    xhr.setRequestHeader('Content-Type', 'application/json')
    const returned = xhr.send('{"sync":true}')
    const afterSend = [...events]
    return { events: afterSend, status: xhr.status, readyState: xhr.readyState, response: JSON.parse(xhr.responseText), extra: returned }
  },
  async 'withCredentials, to another origin'() {
    const other = (window as unknown as { otherOrigin: string }).otherOrigin
    const withCookies = await send('GET', `${other}/xhr/cors`, { withCredentials: true })
    const without = await send('GET', `${other}/xhr/cors`)
    return { ...withCookies.outcome, response: [withCookies.xhr.withCredentials, withCookies.xhr.responseText, without.xhr.withCredentials, without.xhr.responseText] }
  },
  async 'a network error'() {
    const { outcome } = await send('GET', 'http://127.0.0.1:9/nothing-listens')
    return outcome
  },
  'errors of the native methods'() {
    const fresh = () => new XMLHttpRequest()
    const opened = () => {
      const xhr = fresh()
      xhr.open('POST', '/xhr/echo')
      return xhr
    }
    const sent = () => {
      const xhr = opened()
      xhr.send('{"a":1}')
      return xhr
    }
    const sync = () => {
      const xhr = fresh()
      xhr.open('GET', '/xhr/json', false)
      return xhr
    }
    const errors = [
      thrown(() => fresh().send('{"messages":[]}')),
      thrown(() => fresh().setRequestHeader('Content-Type', 'application/json')),
      thrown(() => fresh().open('BAD METHOD', '/')),
      thrown(() => fresh().open('CONNECT', '/')),
      thrown(() => (fresh().open as (method: string) => void)('GET')),
      thrown(() => fresh().open('GET', 'http://[bad')),
      thrown(() => opened().setRequestHeader('Bad Name', 'x')),
      thrown(() => sent().send('{"a":1}')),
      thrown(() => sent().setRequestHeader('X-Late', '1')),
      thrown(() => (sync().responseType = 'json')),
      thrown(() => XMLHttpRequest.prototype.send.call({})),
      thrown(() => Reflect.apply(XMLHttpRequest.prototype.open, {}, ['GET', '/'])),
      thrown(() => XMLHttpRequest.prototype.setRequestHeader.call(null, 'a', 'b')),
    ]
    const print = Function.prototype.toString
    const looks = (['open', 'setRequestHeader', 'send'] as const).map((name) => {
      const descriptor = Object.getOwnPropertyDescriptor(XMLHttpRequest.prototype, name)!
      return [name, print.call(descriptor.value), descriptor.value.length, descriptor.writable, descriptor.enumerable, descriptor.configurable]
    })
    return { events: [], status: 0, readyState: 0, response: errors, extra: looks }
  },
}

/** Starts a request to a server that never answers; the test aborts it once the server holds it. */
export function startHanging(path: string, body: string): void {
  const xhr = new XMLHttpRequest()
  const watched = watch(xhr, true)
  xhr.open('POST', path)
  xhr.setRequestHeader('Content-Type', 'application/json')
  xhr.send(body)
  Object.assign(window, { hanging: { xhr, ...watched } })
}

export async function abortHanging(): Promise<Outcome> {
  const { xhr, events, done } = (window as unknown as { hanging: { xhr: XMLHttpRequest; events: string[]; done: Promise<void> } }).hanging
  xhr.abort()
  await done
  return { events, status: xhr.status, readyState: xhr.readyState, response: xhr.responseText }
}

export type BodyKind = 'text' | 'json' | 'blob' | 'bytes' | 'params'

/** A body sent as it came: what the page passed, to compare with what the server got. */
export async function sendBody(kind: BodyKind, text: string, tag: string): Promise<number> {
  const body = kind === 'blob' ? new Blob([text]) : kind === 'bytes' ? new TextEncoder().encode(text) : kind === 'params' ? new URLSearchParams({ text }) : text
  const headers: [string, string][] = kind === 'json' ? [['Content-Type', 'application/json']] : []
  return (await send('POST', `/xhr/echo?${tag}`, { body, headers })).outcome.status
}
