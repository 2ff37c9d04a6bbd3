// What the chain tests through an agent loop share: a grep call, the number a tool result
// carries, and a gate that makes parallel calls finish in reverse order.
import type { Message } from './agent-loop.ts'

export const GREP = { pattern: 'TODO', path: 'src' }

export const GREP_ARGS = '{"path":"src","pattern":"TODO"}'

/** The call a tool-result message answers, by position among the agent's tool results. */
export function resultNumber(history: readonly Message[], message: Message | undefined): number {
  const results: readonly Message[] = history.filter((m) => m.role === 'tool')
  return results.indexOf(message as Message) + 1
}

/**
 * A gate for calls that start together, round after round (`rounds` gives each round's size):
 * within a round, the call started last finishes first. `finished` lists each call's position
 * in its round, in the order the calls finished.
 */
export function finishingInReverse(rounds: readonly number[]) {
  const finished: number[] = []
  let opens: (() => void)[] = []
  let waits: Promise<void>[] = []
  let round = 0
  let started = 0
  async function gate(): Promise<void> {
    if (started === 0) {
      opens = []
      waits = Array.from({ length: rounds[round]! }, () => new Promise<void>((resolve) => opens.push(resolve)))
    }
    const index = started++
    const mine = waits[index]!
    const roundOpens = opens
    if (started === rounds[round]) {
      started = 0
      round += 1
      roundOpens[index]!()
    }
    await mine
    finished.push(index)
    roundOpens[index - 1]?.()
  }
  return { gate, finished }
}
