// A local model server for realtime sessions over WebSocket (`ws`), speaking each protocol as the
// provider does: OpenAI Realtime on `/v1/realtime` (it picks the `realtime` subprotocol the Agents
// SDK offers, opens with `session.created`, answers `session.update` with `session.updated`, and each
// `response.create` with a scripted model's response) and Gemini Live on a path naming
// `BidiGenerateContent` (`setupComplete` after `setup`, a `toolCall` after each turn or tool
// response, in binary frames as the provider sends them). The scripted model calls one tool with
// the same arguments `calls` times, with unique ids, then answers in text. Every message a client
// sends is kept, in order, per connection; any other path is a plain echo chat.
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import { modelText, setupComplete, toolCall } from '../../fixtures/realtime/gemini-messages.ts'
import { audioDelta, functionCallResponse, sessionCreated, sessionUpdated, sessionObject, textResponse, type RealtimeEvent } from '../../fixtures/realtime/openai-events.ts'

export const FINAL_TEXT = 'All six reads are done.'

export interface RealtimeConnection {
  readonly path: string
  readonly protocol: string
  /** Every message the client sent, as text (binary ones as `<binary n bytes>`), in order. */
  readonly received: string[]
}

export interface RealtimeServer {
  readonly origin: string
  readonly connections: RealtimeConnection[]
  close(): Promise<void>
}

export interface Script {
  readonly tool: string
  readonly args: Record<string, unknown>
  readonly calls: number
  /** The audio deltas the model speaks in each response that calls the tool, right after `response.created` (none unless set). */
  readonly audio?: number
}

export const READ: Script = { tool: 'read_file', args: { path: 'a.txt' }, calls: 6 }

/** The server's end of one realtime connection, whatever carries it: a WebSocket, a WebRTC data channel. */
export interface EventsPeer {
  send(text: string): void
  /** Every text message the client sends, in order. */
  onText(listener: (text: string) => void): void
}

/** Speaks OpenAI Realtime on `peer`: the session, then the scripted model's responses; `received` counts the client's messages so far. */
export function speakOpenAi(peer: EventsPeer, connection: { readonly received: readonly string[] }, script: Script): void {
  let made = 0
  let session = sessionObject('')
  const send = (event: RealtimeEvent) => peer.send(JSON.stringify(event))
  send(sessionCreated())
  peer.onText((text) => {
    const event = JSON.parse(text) as RealtimeEvent
    if (event.type === 'session.update') {
      session = { ...session, ...(event.session as object) }
      send(sessionUpdated(session))
    } else if (event.type === 'conversation.item.create') {
      const item = { id: `item_${connection.received.length}`, object: 'realtime.item', status: 'completed', ...(event.item as object) }
      send({ type: 'conversation.item.added', event_id: `event_added_${connection.received.length}`, previous_item_id: null, item })
      send({ type: 'conversation.item.done', event_id: `event_done_${connection.received.length}`, previous_item_id: null, item })
    } else if (event.type === 'response.create') {
      const calls = made < script.calls
      const [created, ...rest] = calls ? functionCallResponse(script.tool, JSON.stringify(script.args)).events : textResponse(FINAL_TEXT)
      if (calls) made += 1
      const spoken = Array.from({ length: calls ? (script.audio ?? 0) : 0 }, () => audioDelta())
      for (const next of [created!, ...spoken, ...rest]) send(next)
    }
  })
}

function speakGemini(socket: WebSocket, script: Script): void {
  let made = 0
  // As the provider does: JSON in binary frames.
  const send = (message: Record<string, unknown>) => socket.send(Buffer.from(JSON.stringify(message)), { binary: true })
  const next = () => {
    if (made < script.calls) {
      made += 1
      send(toolCall(script.tool, script.args).message)
    } else for (const message of modelText(FINAL_TEXT)) send(message)
  }
  // The model's next step, after a tool's response or a turn the client completes. A turn sent
  // while that step is still to come interrupts it and starts it over, as the protocol says of
  // `clientContent`: one step follows either way.
  let step: NodeJS.Immediate | undefined
  const restart = () => {
    clearImmediate(step)
    step = setImmediate(next)
  }
  socket.on('message', (data, binary) => {
    if (binary) return
    const message = JSON.parse(data.toString()) as { setup?: unknown; toolResponse?: unknown; clientContent?: { turnComplete?: boolean } }
    if (message.setup !== undefined) send(setupComplete())
    else if (message.toolResponse !== undefined || message.clientContent?.turnComplete === true) restart()
  })
}

export async function startRealtimeServer(script: Script = READ): Promise<RealtimeServer> {
  const connections: RealtimeConnection[] = []
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (offered) => (offered.has('realtime') ? 'realtime' : false) })
  server.on('connection', (socket, request) => {
    const path = request.url ?? '/'
    const connection: RealtimeConnection = { path, protocol: socket.protocol, received: [] }
    connections.push(connection)
    socket.on('message', (data, binary) => connection.received.push(binary ? `<binary ${(data as Buffer).length} bytes>` : data.toString()))
    const peer: EventsPeer = { send: (text) => socket.send(text), onText: (listener) => socket.on('message', (data, binary) => binary || listener(data.toString())) }
    if (path.startsWith('/v1/realtime')) speakOpenAi(peer, connection, script)
    else if (path.includes('BidiGenerateContent')) speakGemini(socket, script)
    else socket.on('message', (data, binary) => socket.send(data, { binary }))
  })
  await new Promise<void>((ready) => server.once('listening', ready))
  const { port } = server.address() as AddressInfo
  return {
    origin: `ws://127.0.0.1:${port}`,
    connections,
    close: () =>
      new Promise((done) => {
        for (const client of server.clients) client.terminate()
        server.close(() => done())
      }),
  }
}
