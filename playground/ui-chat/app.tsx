// server-loop.html: agents whose loop runs on a server, on a useChat-style page
// (docs/zero-code.md, "Agents whose loop runs on the server"). Two scenarios of the same scripted
// server (model/ui-chat.ts), each searching six times for the same thing: with the tool on the
// server, the loop runs in one response and the guard can only show its reminders ("would remind");
// with the tool on the page, each call crosses the page and the reminders go into the next requests.
// With the extension, its DevTools panel shows it all; without, the same panel is inline here.
import { useEffect, useMemo, useState } from 'preact/hooks'
import { RECOMMENDED_CONFIG, resolveConfig } from '../../engine/index.ts'
import { Panel } from '../../extension/src/panel/components/panel.tsx'
import { createPanelStore } from '../../extension/src/panel/store/panel-store.ts'
import { findExtensionGuard } from '../agent/guard-port.ts'
import { scriptedBaseUrl } from '../model/endpoint.ts'
import { UI_CHAT_ROUTE } from '../model/ui-chat.ts'
import { ensureScriptedModel } from '../ui/scripted-model.ts'
import { type PageChat, createPageChat } from './chat.ts'
import { ChatView } from './chat-view.tsx'
import { createStandaloneGuard } from './standalone-guard.ts'

const SCENARIOS = {
  server: {
    title: 'Tools on the server',
    prompt: 'Why is "threshold" ignored? (tools on the server)',
    description:
      'The server runs the search tool itself and streams every call and result to the page in one response. A reminder due inside that loop cannot reach the model from the page: the panel shows it as "would remind: the loop runs on the server", and counts the calls the loop made past it.',
  },
  client: {
    title: 'Tools on the page',
    prompt: 'Why is "threshold" ignored? (tools on the page)',
    description:
      "The page runs the search tool (onToolCall, addToolOutput) and sends its result back by itself (sendAutomaticallyWhen). Each call crosses the page: the reminders go into the next requests, and the server's model says it received them.",
  },
} as const

type Tools = keyof typeof SCENARIOS

export function App() {
  const extension = useMemo(() => findExtensionGuard() !== undefined, [])
  const store = useMemo(() => createPanelStore(), [])
  const standalone = useMemo(() => (extension ? undefined : createStandaloneGuard((events) => store.ingest({ frameId: 0, url: location.href, events }))), [extension, store])
  const [chat, setChat] = useState<PageChat>()
  const [, redraw] = useState(0)
  const [error, setError] = useState<string>()
  useEffect(() => chat?.observed.subscribe(() => redraw((n) => n + 1)), [chat])

  async function run(tools: Tools): Promise<void> {
    setError(undefined)
    try {
      await ensureScriptedModel()
      const api = new URL(UI_CHAT_ROUTE, `${scriptedBaseUrl(location.href)}/`).href
      const next = createPageChat(api, tools, standalone?.fetch ?? globalThis.fetch.bind(globalThis))
      setChat(next)
      await next.sendMessage({ text: SCENARIOS[tools].prompt })
    } catch (caught) {
      setError(String(caught))
    }
  }

  const sink = useMemo(
    () => ({
      current: () => standalone?.config ?? RECOMMENDED_CONFIG,
      apply: async (config: Parameters<typeof resolveConfig>[0]) => {
        if (standalone) standalone.config = resolveConfig(config, RECOMMENDED_CONFIG)
      },
    }),
    [standalone],
  )

  return (
    <div class="page">
      <header class="top">
        <h1>
          Repeat Tool Guard <span class="muted">playground · loops on a server</span>
        </h1>
        <a href="./index.html">the in-page agent</a>
      </header>
      <main class="layout">
        <aside class="side">
          {(Object.keys(SCENARIOS) as Tools[]).map((tools) => (
            <div class="pane" key={tools}>
              <h2>{SCENARIOS[tools].title}</h2>
              <p>{SCENARIOS[tools].description}</p>
              <button type="button" data-testid={`run-${tools}`} disabled={chat?.status === 'streaming' || chat?.status === 'submitted'} onClick={() => void run(tools)}>
                Run
              </button>
            </div>
          ))}
        </aside>
        <section class="center">
          {error !== undefined && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          {chat && (
            <p class="run-status" data-testid="chat-status">
              {chat.status}
            </p>
          )}
          {chat && <ChatView messages={chat.messages} />}
        </section>
        <aside class="inspector-side">
          {extension ? (
            <div class="pane" data-testid="inspector-extension">
              <h2>Inspector</h2>
              <p>
                The extension reads this page's streams. Open DevTools and its <strong>Repeat Tool Guard</strong> panel: the agent has reach <code>ui-stream</code>.
              </p>
            </div>
          ) : (
            <div class="inline-inspector" data-testid="inspector-inline">
              <Panel store={store} sink={sink} />
            </div>
          )}
        </aside>
      </main>
    </div>
  )
}
