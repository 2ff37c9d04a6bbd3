// With traps on every built-in a page may replace, the hooks over its transports (XMLHttpRequest,
// fetch, a worker's postMessage, WebMCP) call none of them.
import { describe, expect, it } from 'vitest'
import { installFetchInterceptor } from '../../../../extension/src/page/fetch/install.ts'
import { installWebllmInterceptor } from '../../../../extension/src/page/webllm/install.ts'
import { installWebMcpHooks } from '../../../../extension/src/page/webmcp/install.ts'
import type { WebMcpAnalysis } from '../../../../extension/src/page/webmcp/analysis.ts'
import type { WireAnalysis } from '../../../../extension/src/page/wire/analysis.ts'
import { installXhrInterceptor } from '../../../../extension/src/page/xhr/install.ts'
import { openaiChatBody, repeat } from '../../../fixtures/wire/conversations.ts'
import { createTraps, type Traps } from './support/builtin-traps.ts'

// The hooks over the page's transports, with every built-in trapped while a hooked call runs
// (builtin-traps.ts): the fakes stand for the browser's natives, the page's tool and the analysis,
// which run disarmed; the hook's own code must call none of the traps.
describe('the hooks, called while the page has trapped its built-ins', () => {
  const LLM_BODY = JSON.stringify(openaiChatBody({ system: 'You are a trapped agent.', turns: [{ prompt: 'go' }, ...repeat({ name: 'read_file', args: { path: 'a.txt' } }, 3)] }))
  const GUARDED = '{"guarded":true}'

  /** An analysis that records what the hook hands it and sends GUARDED (or, for a worker, the request with one more message). */
  function standInAnalysis(traps: Traps, rewrite: (text: string) => string = () => GUARDED) {
    const asked: { text: string; url: string; reach: string }[] = []
    const standIn: WireAnalysis = {
      plan: (_args, analysed, withBody) =>
        traps.outside(() => {
          asked.push({ text: analysed.text, url: traps.inside(() => analysed.url()), reach: analysed.reach })
          const body = rewrite(analysed.text)
          return { args: traps.inside(() => withBody(body)), after: () => undefined }
        }),
      failed: (args) => ({ args, after: () => undefined }),
      snapshot: () => [],
      openStream: () => undefined,
      openRealtime: () => ({ received: () => undefined, sent: () => [] }),
    }
    return { asked, analysis: () => standIn }
  }

  const target = (extra: Record<string, unknown>) =>
    ({ Reflect, WeakMap, Proxy, Object, Promise, URL, Request, Headers, location: { href: 'https://app.example/chat/' }, ...extra }) as unknown as Window & typeof globalThis

  it('XMLHttpRequest: open, setRequestHeader and send of an LLM request; the analysis gets it and the network its rewrite', () => {
    const traps = createTraps()
    const sent: unknown[] = []
    class FakeXhr {
      open(..._args: unknown[]) {}
      setRequestHeader(..._args: unknown[]) {}
      send(body: unknown) {
        traps.outside(() => sent.push(body))
      }
    }
    const { asked, analysis } = standInAnalysis(traps)
    expect(installXhrInterceptor({ target: target({ XMLHttpRequest: FakeXhr }), mode: () => 'guard', analysis, showAsNative: () => undefined })).toBe(true)
    const xhr = new FakeXhr()
    // Spellings the checks compare character by character, as well as the usual ones.
    traps.armedDuring(() => {
      xhr.open('Post', '/v1/chat/completions')
      xhr.setRequestHeader('CONTENT-TYPE', 'application/json; charset=UTF-8')
      xhr.setRequestHeader('X-Trace', 'on')
      xhr.send(LLM_BODY)
    })
    expect(traps.hits).toEqual([])
    expect(asked).toEqual([{ text: LLM_BODY, url: 'https://app.example/v1/chat/completions', reach: 'xhr' }])
    expect(sent).toEqual([GUARDED])
  })

  it('fetch: a JSON POST with its headers as a record, then as pairs; the analysis gets each and the network its rewrite', async () => {
    const traps = createTraps()
    const bodies: unknown[] = []
    const fakeFetch = (_input: unknown, init?: { body?: unknown }) =>
      traps.outside(() => {
        // The browser reads the init the hook hands it, through the hook's Proxy.
        bodies.push(traps.inside(() => init?.body))
        return Promise.resolve('response')
      })
    const page = target({ fetch: fakeFetch })
    const { asked, analysis } = standInAnalysis(traps)
    expect(installFetchInterceptor({ target: page, mode: () => 'guard', analysis, showAsNative: () => undefined })).toBe(true)
    const responses = traps.armedDuring(() => [
      page.fetch('/v1/chat/completions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: LLM_BODY }),
      page.fetch(new URL('https://api.example/v1/messages'), { method: 'pOsT', headers: [['Content-type', 'application/vnd.api+json']], body: LLM_BODY }),
      page.fetch('/v1/ping'),
    ])
    expect(traps.hits).toEqual([])
    expect(await Promise.all(responses)).toEqual(['response', 'response', 'response'])
    expect(asked).toEqual([
      { text: LLM_BODY, url: 'https://app.example/v1/chat/completions', reach: 'fetch' },
      { text: LLM_BODY, url: 'https://api.example/v1/messages', reach: 'fetch' },
    ])
    expect(bodies).toEqual([GUARDED, GUARDED, undefined])
  })

  it("a worker's postMessage (WebLLM): a chat request; the analysis gets it and the worker its rewrite", () => {
    const traps = createTraps()
    const posted: unknown[] = []
    class FakeWorker {
      postMessage(message: unknown) {
        traps.outside(() => posted.push(message))
      }
    }
    const request = { ...JSON.parse(LLM_BODY), model: 'm', stream: false }
    const reminder = { role: 'user', content: 'a reminder' }
    // The rewrite the wire guard would make: one message more at the end.
    const { asked, analysis } = standInAnalysis(traps, (text) => {
      const parsed = JSON.parse(text)
      return JSON.stringify({ ...parsed, messages: [...parsed.messages, reminder] })
    })
    expect(installWebllmInterceptor({ target: target({ Worker: FakeWorker }), mode: () => 'guard', analysis, showAsNative: () => undefined })).toBe(true)
    const worker = new FakeWorker()
    traps.armedDuring(() => {
      worker.postMessage({ kind: 'chatCompletionNonStreaming', uuid: 'u-1', content: { request, modelId: ['m'], chatOpts: undefined } })
      worker.postMessage('hello')
    })
    expect(traps.hits).toEqual([])
    expect(asked).toEqual([{ text: JSON.stringify(request), url: 'webllm:m', reach: 'webllm' }])
    expect(posted).toEqual([
      { kind: 'chatCompletionNonStreaming', uuid: 'u-1', content: { request: { ...request, messages: [...request.messages, reminder] }, modelId: ['m'], chatOpts: undefined } },
      'hello',
    ])
  })

  it('WebMCP: registerTool, the browser calling the tool, and executeTool; the tool runs once per call', async () => {
    const traps = createTraps()
    type Execute = (...args: unknown[]) => unknown
    // What the browser keeps of each tool, by name: a declared one (from a form) never passes registerTool.
    const kept = new Map<string, Execute>([['search', (args) => traps.outside(() => ({ content: [{ type: 'text', text: `found ${JSON.stringify(args)}` }] }))]])
    class ModelContext {
      registerTool(tool: { readonly name: string; readonly description: string; execute: Execute }) {
        traps.outside(() =>
          kept.set(
            traps.inside(() => tool.name),
            traps.inside(() => tool.execute),
          ),
        )
      }
      executeTool(tool: { name: string }, args: unknown) {
        return traps.outside(() => Promise.resolve(JSON.stringify(kept.get(tool.name)!(args))))
      }
    }
    const settled: unknown[] = []
    const analysis: WebMcpAnalysis = {
      refused: () => traps.outside(() => undefined),
      settled: (_call, outcome) => traps.outside(() => (settled.push(outcome), outcome.ok ? outcome.value : undefined)),
      fault: () => undefined,
      snapshot: () => [],
    }
    const page = target({ ModelContext })
    expect(installWebMcpHooks({ target: page, mode: () => 'guard', analysis: () => analysis, showAsNative: () => undefined })).toBe(true)
    const context = new ModelContext()
    const runs: unknown[] = []
    const result = { content: [{ type: 'text', text: 'notes' }] }
    const executed = traps.armedDuring(() => {
      context.registerTool({ name: 'read_file', description: 'Reads a file', execute: (args: unknown) => traps.outside(() => (runs.push(args), result)) })
      // The browser's agent calls the tool it kept (the hook's wrapper); the page's own agent calls
      // the declared one through executeTool.
      const byBrowser = traps.outside(() => kept.get('read_file')!)({ path: 'a.txt' })
      const byPage = context.executeTool({ name: 'search', window: page } as { name: string }, { q: 'x' })
      return { byBrowser, byPage }
    })
    expect(traps.hits).toEqual([])
    expect(executed.byBrowser).toBe(result)
    expect(JSON.parse(await executed.byPage)).toEqual({ content: [{ type: 'text', text: 'found {"q":"x"}' }] })
    expect(runs).toEqual([{ path: 'a.txt' }])
    expect(settled).toEqual([
      { ok: true, value: result },
      { ok: true, value: JSON.stringify({ content: [{ type: 'text', text: 'found {"q":"x"}' }] }) },
    ])
  })
})
