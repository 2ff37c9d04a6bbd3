// A response the guard reads for the requests that continue it (node/response-tap.ts): read as the
// app reads it, never ahead, the app's Response staying undici's own in everything but its body.
import { describe, expect, test } from 'vitest'
import type { BodySink } from '../../../node/body-watch.ts'
import { tapResponse } from '../../../node/response-tap.ts'
import { ticks } from '../support/ticks.ts'

interface Source {
  readonly response: Response
  /** How many chunks the original body was asked for. */
  pulls(): number
}

/** A Response whose body hands out `pieces` one per pull, counting the pulls. */
function source(pieces: readonly string[]): Source {
  const left = [...pieces]
  let pulls = 0
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls++
        const next = left.shift()
        if (next === undefined) controller.close()
        else controller.enqueue(new TextEncoder().encode(next))
      },
    },
    { highWaterMark: 0 },
  )
  return { response: new Response(body, { status: 201, statusText: 'Made', headers: { 'content-type': 'application/json', 'x-kept': 'yes' } }), pulls: () => pulls }
}

/** A sink that records what it is told, and wants everything. */
function recorder(): { sink: BodySink; told: string[] } {
  const told: string[] = []
  return {
    told,
    sink: {
      chunk: (text) => (told.push(`chunk ${text}`), true),
      end: () => void told.push('end'),
      cut: () => void told.push('cut'),
      fail: (error) => void told.push(`fail ${String(error)}`),
    },
  }
}

const PIECES = ['{"id":"resp_1",', '"output":[]', '}']

describe('tapResponse', () => {
  test('reads nothing before the app does, then each chunk as the app reads it', async () => {
    const { response, pulls } = source(PIECES)
    const { sink, told } = recorder()
    let opened = 0
    expect(tapResponse(response, () => (opened++, sink))).toBe(true)
    await ticks()
    expect([pulls(), opened]).toEqual([0, 0])
    const reader = response.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(PIECES[0])
    await ticks()
    expect([pulls(), opened, told]).toEqual([1, 1, [`chunk ${PIECES[0]}`]])
    await reader.read()
    await reader.read()
    expect((await reader.read()).done).toBe(true)
    expect(told).toEqual([...PIECES.map((piece) => `chunk ${piece}`), 'chunk ', 'end'])
  })

  test("keeps the app's Response: status, headers and its reading methods", async () => {
    const { response } = source(PIECES)
    const { sink, told } = recorder()
    tapResponse(response, () => sink)
    expect([response instanceof Response, response.status, response.statusText, response.headers.get('x-kept'), response.bodyUsed]).toEqual([true, 201, 'Made', 'yes', false])
    expect(Object.keys(response)).toEqual([])
    expect(await response.json()).toEqual({ id: 'resp_1', output: [] })
    expect(response.bodyUsed).toBe(true)
    expect(told.at(-1)).toBe('end')
    await expect(response.text()).rejects.toThrow(TypeError)
  })

  test('a clone taken before any read is read through the guard too, with a sink of its own', async () => {
    const { response } = source(PIECES)
    const sinks: string[][] = []
    tapResponse(response, () => {
      const { sink, told } = recorder()
      sinks.push(told)
      return sink
    })
    const copy = response.clone()
    expect([copy.status, copy.headers.get('x-kept')]).toEqual([201, 'yes'])
    expect(await copy.text()).toBe(PIECES.join(''))
    expect(await response.text()).toBe(PIECES.join(''))
    expect(sinks).toHaveLength(2)
    for (const told of sinks) expect(told.at(-1)).toBe('end')
  })

  test('the app cancelling the body cuts the reading and cancels the original', async () => {
    const { response, pulls } = source(PIECES)
    const { sink, told } = recorder()
    tapResponse(response, () => sink)
    const reader = response.body!.getReader()
    await reader.read()
    await reader.cancel('enough')
    expect(told).toEqual([`chunk ${PIECES[0]}`, 'cut'])
    expect(pulls()).toBe(1)
  })

  test('a sink that throws is let go; the app reads on', async () => {
    const { response } = source(PIECES)
    const told: string[] = []
    tapResponse(response, () => ({
      chunk: () => {
        throw new Error('sink broke')
      },
      end: () => void told.push('end'),
      cut: () => void told.push('cut'),
      fail: (error) => void told.push(`fail ${(error as Error).message}`),
    }))
    expect(await response.text()).toBe(PIECES.join(''))
    expect(told).toEqual(['fail sink broke'])
  })

  test('a response without a body is left alone', () => {
    const response = new Response(null, { status: 204 })
    expect(tapResponse(response, () => recorder().sink)).toBe(false)
    expect(Object.getOwnPropertyNames(response)).toEqual([])
  })
})
