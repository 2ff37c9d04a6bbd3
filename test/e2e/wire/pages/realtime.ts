// Realtime voice agents as a page writes them, with no code of the guard's: the Agents SDK's
// `RealtimeSession` over its `OpenAIRealtimeWebSocket` transport, `@google/genai`'s
// `ai.live.connect`, and a plain WebSocket chat. Each runs against the local realtime server
// whose address the test gives; each tool returns the same text every time.
import { GoogleGenAI, Modality, type LiveServerMessage, type Session } from '@google/genai'
import { OpenAIRealtimeWebSocket } from '@openai/agents-realtime'
import { FINAL_TEXT, INSTRUCTIONS, runReader } from './realtime-reader.ts'

/** Runs the agent until the model's final text, after `spoken` chunks of the microphone's audio; the text of every turn it ended. */
const openai = (url: string, spoken = 0) => runReader(new OpenAIRealtimeWebSocket({ url, useInsecureApiKey: true }), spoken)

/** Answers every tool call as the page's own code would, until the model's final text. */
async function gemini(baseUrl: string): Promise<{ texts: string[]; tools: number }> {
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl } })
  const texts: string[] = []
  let tools = 0
  let session: Session | undefined
  const queued: LiveServerMessage[] = []
  let finish!: () => void
  const finished = new Promise<void>((done) => (finish = done))
  const handle = (message: LiveServerMessage) => {
    for (const call of message.toolCall?.functionCalls ?? []) {
      tools += 1
      session!.sendToolResponse({ functionResponses: [{ id: call.id, name: call.name, response: { output: `contents of ${String(call.args?.path)}: export const a = 1` } }] })
    }
    for (const part of message.serverContent?.modelTurn?.parts ?? []) if (part.text) texts.push(part.text)
    if (message.serverContent?.turnComplete && texts.includes(FINAL_TEXT)) finish()
  }
  session = await ai.live.connect({
    model: 'gemini-live-2.5-flash-preview',
    config: { responseModalities: [Modality.TEXT], systemInstruction: INSTRUCTIONS, tools: [{ functionDeclarations: [{ name: 'read_file', description: 'Reads a file of the project' }] }] },
    callbacks: { onmessage: (message) => (session ? handle(message) : queued.push(message)) },
  })
  for (const message of queued.splice(0)) handle(message)
  session.sendClientContent({ turns: [{ role: 'user', parts: [{ text: 'Read a.txt until you are sure of it.' }] }], turnComplete: true })
  await finished
  session.close()
  return { texts, tools }
}

/** A chat over a plain WebSocket: sends each text (and one binary frame), and returns what came back. */
async function chat(url: string, texts: string[]): Promise<string[]> {
  const socket = new WebSocket(url)
  const echoed: string[] = []
  await new Promise((open) => socket.addEventListener('open', open))
  const all = new Promise<void>((done) =>
    socket.addEventListener('message', (event) => {
      echoed.push(typeof event.data === 'string' ? event.data : `<${(event.data as Blob).size} bytes>`)
      if (echoed.length === texts.length + 1) done()
    }),
  )
  for (const text of texts) socket.send(text)
  socket.send(new Uint8Array([1, 2, 3]))
  await all
  socket.close()
  return echoed
}

Object.assign(window, { realtime: { openai, gemini, chat } })
