// The voice agent both realtime pages run, whatever transport carries it: the Agents SDK's
// `RealtimeAgent` "Reader", whose one tool returns the same text every time, run in a
// `RealtimeSession` until the model's final text.
import { RealtimeAgent, RealtimeSession, tool, type RealtimeTransportLayer } from '@openai/agents-realtime'
import { z } from 'zod'

export const FINAL_TEXT = 'All six reads are done.'
export const INSTRUCTIONS = 'You are a voice agent that reads files.\nAnswer briefly.'

const readFile = tool({
  name: 'read_file',
  description: 'Reads a file of the project',
  parameters: z.object({ path: z.string() }),
  // A tool takes a moment, as a real one does: the response that called it is done by the time it
  // answers, so the SDK sends the result and the next response.create in the same turn.
  execute: async ({ path }) => {
    await new Promise((done) => setTimeout(done, 20))
    return `contents of ${path}: export const a = 1`
  },
})

/**
 * Runs the agent over `transport` until the model's final text, first sending `spoken` chunks of
 * the microphone's audio (100 ms of 24 kHz PCM16 silence each); the text of every turn it ended,
 * and the audio chunks the session handed the page.
 */
export async function runReader(transport: RealtimeTransportLayer, spoken = 0): Promise<{ turns: string[]; tools: number; audio: number }> {
  const agent = new RealtimeAgent({ name: 'Reader', instructions: INSTRUCTIONS, tools: [readFile] })
  const session = new RealtimeSession(agent, { transport, model: 'gpt-realtime' })
  const turns: string[] = []
  let tools = 0
  let audio = 0
  session.on('agent_tool_end', () => void (tools += 1))
  session.on('audio', () => void (audio += 1))
  const finished = new Promise<void>((done) =>
    session.on('agent_end', (_context, _agent, text) => {
      turns.push(text)
      if (text === FINAL_TEXT) done()
    }),
  )
  await session.connect({ apiKey: 'sk-test-key' })
  for (let n = 0; n < spoken; n++) session.sendAudio(new ArrayBuffer(4_800))
  session.sendMessage('Read a.txt until you are sure of it.')
  await finished
  session.close()
  return { turns, tools, audio }
}
