// What a page does with the OpenAI Responses answers it fetches, run inside the page (each function
// is handed to Playwright's or Puppeteer's `evaluate`, so it uses nothing from outside itself but
// what `installBodyReader` gave the page): read one chunk and cancel; look at every part of the
// Response a page can observe, reading its body one way; run an agent loop continued by
// `previous_response_id` that reads every answer that way.

/** The ways a page reads a body. `json` takes a JSON answer, the others a JSON or a streamed one. */
export const READ_WAYS = ['text', 'json', 'arrayBuffer', 'bytes', 'blob', 'reader', 'byob', 'iterate', 'pipe', 'clone'] as const
export type ReadWay = (typeof READ_WAYS)[number]

export interface LoopOptions {
  readonly model: string
  readonly way: ReadWay
  readonly stream: boolean
  readonly requests: number
}

export interface ReadingWindow {
  /** The body's text read the way `way` says, and for `blob` the blob's type (for `clone`, what became of the body held before). */
  readBody(response: Response, way: ReadWay): Promise<readonly [text: string, blobType: string]>
  /**
   * An agent loop over the Responses API, continued by id: it asks, reads every answer the way
   * `way` says, runs the tool the answer calls and sends only its output with the answer's id.
   * Returns the texts it read, ids replaced.
   */
  respondedLoop(options: LoopOptions): Promise<string[]>
}

/** Gives the page `readBody` and `respondedLoop`, which the functions below use. */
export function installPageReading(): void {
  const decode = (bytes: ArrayBuffer | Uint8Array) => new TextDecoder().decode(bytes)
  async function text(response: Response, way: ReadWay): Promise<string> {
    switch (way) {
      case 'text':
        return response.text()
      case 'json':
        return JSON.stringify(await response.json())
      case 'arrayBuffer':
        return decode(await response.arrayBuffer())
      case 'bytes':
        return decode(await response.bytes())
      case 'blob':
        throw new Error('read apart')
      case 'reader': {
        const reader = response.body!.getReader()
        let read = ''
        for (let next = await reader.read(); !next.done; next = await reader.read()) read += decode(next.value)
        return read
      }
      case 'byob': {
        const reader = response.body!.getReader({ mode: 'byob' })
        const parts: number[] = []
        for (;;) {
          const { done, value } = await reader.read(new Uint8Array(100))
          if (done) break
          if (value.byteLength > 100) throw new Error('a BYOB read returned more than its buffer')
          for (const byte of value) parts.push(byte)
        }
        return decode(new Uint8Array(parts))
      }
      case 'iterate': {
        let read = ''
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) read += decode(chunk)
        return read
      }
      case 'pipe': {
        let read = ''
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
        for (let next = await reader.read(); !next.done; next = await reader.read()) read += next.value
        return read
      }
      case 'clone': {
        const copy = response.clone()
        const [own, copied] = await Promise.all([response.text(), copy.text()])
        return own === copied ? own : `the clone differs: ${copied}`
      }
    }
  }
  async function readBody(response: Response, way: ReadWay): Promise<readonly [string, string]> {
    if (way === 'clone') {
      // The body as the page held it before cloning: the same or a new one after, locked or not.
      const held = response.body!
      const read = await text(response, way)
      return [read, `${held === response.body} ${held.locked}`]
    }
    if (way !== 'blob') return [await text(response, way), '']
    const blob = await response.blob()
    return [await blob.text(), blob.type]
  }
  /** The answer's id and its first item's call id, from a JSON answer or a stream's `response.completed`. */
  function answered(text: string): { id: string; callId: string } {
    let response: { id: string; output: { call_id: string }[] } | undefined
    if (text.trimStart().startsWith('{')) response = JSON.parse(text)
    else for (const line of text.split('\n')) if (line.startsWith('data: ') && line.includes('"response.completed"')) response = JSON.parse(line.slice(6)).response
    return { id: response!.id, callId: response!.output[0]!.call_id }
  }
  async function respondedLoop({ model, way, stream, requests }: LoopOptions): Promise<string[]> {
    const texts: string[] = []
    let previous: { id: string; callId: string } | undefined
    for (let n = 0; n < requests; n++) {
      const input = previous
        ? [{ type: 'function_call_output', call_id: previous.callId, output: 'TODO: the loader ignores "threshold"' }]
        : [{ role: 'user', content: 'Why is the threshold ignored?' }]
      const body = { model, instructions: 'You are a careful coding agent.', input, stream, ...(previous ? { previous_response_id: previous.id } : {}) }
      const response = await fetch('/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const [text] = await readBody(response, way)
      texts.push(text.replace(/resp_[A-Za-z0-9_]+/g, 'resp_ID'))
      previous = answered(text)
    }
    return texts
  }
  const reading: ReadingWindow = { readBody, respondedLoop }
  Object.assign(window, reading)
}

/** Fetches `path` with `body` as a JSON POST, reads one chunk and cancels; the chunk's size. */
export async function readOneChunkAndCancel([path, body]: readonly [string, string]): Promise<number> {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const reader = response.body!.getReader()
  const { value } = await reader.read()
  await reader.cancel()
  return value!.byteLength
}

/**
 * Fetches `path` with `body` as a JSON POST and looks at the Response as a page can, then reads
 * its body the way `way` says (ids in the text replaced: every answer has its own). Plain values
 * only, so that two browsers' records compare; apart from the record, the response's own keys
 * and the names `for...in` lists.
 */
export async function observeResponse([path, body, way]: readonly [string, string, ReadWay]): Promise<{ record: Record<string, unknown>; ownKeys: string[]; forIn: string[] }> {
  const { readBody } = window as unknown as ReadingWindow
  const outcome = async (run: () => unknown) => {
    try {
      return `ok: ${String(await run())}`
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`
    }
  }
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const getter = (key: string) => Object.getOwnPropertyDescriptor(Response.prototype, key)!.get!
  const forIn: string[] = []
  for (const key in response) forIn.push(key)
  const record: Record<string, unknown> = {
    instance: response instanceof Response,
    prototype: Object.getPrototypeOf(response) === Response.prototype,
    status: response.status,
    statusText: response.statusText,
    ok: response.ok,
    url: new URL(response.url).pathname,
    redirected: response.redirected,
    type: response.type,
    throughPrototype: [getter('url').call(response) === response.url, getter('type').call(response), getter('redirected').call(response)],
    headers: [...response.headers].filter(([name]) => name !== 'date'),
    headersLocked: await outcome(() => response.headers.set('x-page', '1')),
    keys: Object.keys(response),
    asJson: JSON.stringify(response),
    printed: ['text', 'json', 'clone'].map((key) => Function.prototype.toString.call((Response.prototype as unknown as Record<string, () => void>)[key])),
    printedBody: Function.prototype.toString.call(getter('body')),
    bodyUsedBefore: response.bodyUsed,
    // biome-ignore lint/suspicious/noSelfCompare: the getter must answer the same stream each time it is read
    body: [Object.prototype.toString.call(response.body), response.body === response.body, response.body!.locked],
  }
  record.read = (await outcome(async () => (await readBody(response, way)).join(' | '))).replace(/resp_[A-Za-z0-9_]+/g, 'resp_ID')
  record.bodyUsedAfter = response.bodyUsed
  record.readAgain = await outcome(() => response.text())
  record.cloneAfter = await outcome(() => response.clone())
  return { record, ownKeys: Reflect.ownKeys(response).map(String), forIn: forIn.sort() }
}

/** The stacks of the errors a response the guard does not watch (a plain GET) throws: read twice, cloned once read. */
export async function unwatchedErrorStacks(path: string): Promise<string[]> {
  const response = await fetch(path)
  await response.text()
  const stacks: string[] = []
  for (const misuse of [() => response.text(), () => response.clone(), () => response.body!.getReader().read()])
    try {
      await misuse()
    } catch (error) {
      stacks.push(String((error as Error).stack))
    }
  return stacks
}

/** Runs `respondedLoop` in the page. */
export const runLoop = (options: LoopOptions): Promise<string[]> => (window as unknown as ReadingWindow).respondedLoop(options)

/**
 * Replaces, after load, the built-ins a body is read with (streams, their readers and controllers,
 * the decoder, Headers, Response, TransformStream, Proxy, WeakMap's methods) with functions that
 * note their call and throw; runs `respondedLoop` reading with `text()`; puts them back. Returns
 * the loop's texts and what was called. (Promise's `then` stays: the page's own async functions
 * call it.)
 */
export async function loopWithBuiltinsReplaced(options: LoopOptions): Promise<{ texts: string[]; called: string[] }> {
  // The page's own plumbing, taken before it replaces anything.
  const { defineProperty, getOwnPropertyDescriptor, entries } = Object
  const called: string[] = []
  const restore: (() => void)[] = []
  const replace = (owner: object, key: string, label: string) => {
    const descriptor = getOwnPropertyDescriptor(owner, key)!
    restore.push(() => defineProperty(owner, key, descriptor))
    // biome-ignore lint/complexity/useArrowFunction: it stands in for constructors too, which an arrow cannot
    const thrower = function () {
      called.push(label)
      throw new Error(`${label}: replaced by the page`)
    }
    defineProperty(owner, key, descriptor.get ? { ...descriptor, get: thrower } : { ...descriptor, value: thrower })
  }
  const members: Record<string, [object, string[]]> = {
    ReadableStream: [ReadableStream.prototype, ['getReader', 'cancel', 'pipeThrough', 'pipeTo', 'tee', 'locked']],
    ReadableStreamDefaultReader: [ReadableStreamDefaultReader.prototype, ['read', 'cancel', 'releaseLock']],
    ReadableByteStreamController: [ReadableByteStreamController.prototype, ['enqueue', 'close', 'error', 'byobRequest']],
    ReadableStreamBYOBRequest: [ReadableStreamBYOBRequest.prototype, ['respond']],
    TextDecoder: [TextDecoder.prototype, ['decode']],
    Headers: [Headers.prototype, ['get']],
    Response: [Response.prototype, ['headers']],
    WeakMap: [WeakMap.prototype, ['get', 'set']],
    Object: [Object, ['create', 'defineProperty', 'getOwnPropertyDescriptor']],
    window: [window, ['Response', 'ReadableStream', 'TransformStream', 'TextDecoder', 'Proxy']],
  }
  for (const [name, [owner, keys]] of entries(members)) for (const key of keys) replace(owner, key, `${name}.${key}`)
  try {
    return { texts: await (window as unknown as ReadingWindow).respondedLoop(options), called }
  } finally {
    for (let i = restore.length - 1; i >= 0; i--) restore[i]!()
  }
}
