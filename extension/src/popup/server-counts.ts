// What the popup counts of the Node processes of a page served from localhost (docs/node-bridge.md,
// "In the toolbar popup"): it attaches to their bridges itself, as the panel does (ui/bridge-socket.ts),
// so it counts them with no panel open. Per process: the agents it has run and the reminders it
// sent, from its hello and the recent history it keeps, then live.
import type { PanelEvent } from '../protocol/events.ts'
import { openBridgeSocket } from '../ui/bridge-socket.ts'
import { serverLabel } from '../ui/server-label.ts'

export interface ServerCount {
  readonly port: number
  /** "server · pid 1234 · node 20 · server.js". */
  readonly label: string
  readonly agents: number
  /** Reminders that reached the model. */
  readonly reminders: number
  /** Reminders the process only showed (observe mode). */
  readonly observed: number
  /** The process let older events go before the popup came: its counts are at least these. */
  readonly truncated: boolean
  /** The process went away while the popup was open. */
  readonly gone: boolean
}

export interface ServerCounts {
  /** The processes that answered, in the order of the ports given. */
  counts(): readonly ServerCount[]
  close(): void
}

interface Tally {
  label: string
  agents: Set<string>
  reminders: number
  observed: number
  truncated: boolean
  gone: boolean
}

function fold(tally: Tally, event: PanelEvent): void {
  if (event.type === 'agent') tally.agents.add(event.agent.id)
  else if (event.type === 'snapshot') for (const agent of event.agents) tally.agents.add(agent.id)
  else if (event.type === 'reminder') {
    if (event.withheld === undefined) tally.reminders += 1
    else tally.observed += 1
  }
}

/** Attaches to the bridge on each port; `changed` is called whenever a count moves. */
export function countServers(ports: readonly number[], changed: () => void): ServerCounts {
  const tallies = new Map<number, Tally>()
  const unique = [...new Set(ports)]
  const sockets = unique.map((port) =>
    openBridgeSocket({
      url: `ws://127.0.0.1:${port}`,
      handlers: {
        hello({ process, snapshot }) {
          // A process newly on the port (the first, or one after a gone one) is counted afresh.
          const tally: Tally = { label: serverLabel(process), agents: new Set(), reminders: 0, observed: 0, truncated: false, gone: false }
          fold(tally, snapshot)
          tallies.set(port, tally)
          changed()
        },
        events({ events, truncated }) {
          const tally = tallies.get(port)
          if (tally === undefined) return
          if (truncated) tally.truncated = true
          for (const event of events) fold(tally, event)
          changed()
        },
        refused: () => {},
        gone() {
          const tally = tallies.get(port)
          if (tally !== undefined) tally.gone = true
          changed()
        },
        dropped: () => {},
      },
    }),
  )
  return {
    counts: () =>
      unique.flatMap((port) => {
        const tally = tallies.get(port)
        if (tally === undefined) return []
        const { label, reminders, observed, truncated, gone } = tally
        return [{ port, label, agents: tally.agents.size, reminders, observed, truncated, gone }]
      }),
    close() {
      for (const socket of sockets) socket.close()
    },
  }
}
