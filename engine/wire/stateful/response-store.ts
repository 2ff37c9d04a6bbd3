// What the provider keeps of each response the page received, as far as the guard needs it: a
// bounded store, per page, of the responses read from their tees. A request continuing one of
// them (`previous_response_id`) is guarded over the whole chain, walked back through it.

export interface StoredResponse {
  readonly id: string
  /** The response the request that made this one continued; undefined for the first of a chain. */
  readonly previous: string | undefined
  /** That request's own input items, as the page sent them, then the response's output items. */
  readonly items: readonly unknown[]
  /** About how many bytes it holds. */
  readonly bytes: number
}

export interface ResponseStoreLimits {
  /** Responses remembered at once; the one used least recently is forgotten first. */
  readonly maxResponses: number
  /** The bytes they may hold together, likewise. */
  readonly maxBytes: number
}

export interface ResponseStore {
  add(response: StoredResponse): void
  has(id: string): boolean
  /**
   * The chain that ends with `id`, its first response first; undefined when one of its responses
   * is not (or no longer) known. Its responses count as used now.
   */
  chain(id: string): StoredResponse[] | undefined
}

export function createResponseStore({ maxResponses, maxBytes }: ResponseStoreLimits): ResponseStore {
  const responses = new Map<string, StoredResponse>()
  let bytes = 0

  function forget(id: string): void {
    bytes -= responses.get(id)!.bytes
    responses.delete(id)
  }

  return {
    add(response) {
      // One that alone would fill the store would only push out everything else.
      if (response.bytes > maxBytes) return
      if (responses.has(response.id)) forget(response.id)
      responses.set(response.id, response)
      bytes += response.bytes
      while (responses.size > maxResponses || bytes > maxBytes) forget(responses.keys().next().value!)
    },

    has: (id) => responses.has(id),

    chain(id) {
      const chain: StoredResponse[] = []
      let next: string | undefined = id
      while (next !== undefined) {
        const response = responses.get(next)
        // A chain longer than the store holds loops back on itself: it cannot be real.
        if (!response || chain.length === responses.size) return undefined
        chain.push(response)
        next = response.previous
      }
      chain.reverse()
      for (const response of chain) {
        responses.delete(response.id)
        responses.set(response.id, response)
      }
      return chain
    },
  }
}
