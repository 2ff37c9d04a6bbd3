// A session file cut to what a panel opening it keeps: its byte budget counts `excess` bytes more
// than it allows (a sanitized file's stand-ins are longer than the short texts they replace). The
// oldest records go first, in the budget's order (store-budget.ts): subframes that hold no agent,
// rows, faults, then the agents seen first. Every byte taken off is counted as the budget counts
// it, so a panel with that budget opens the file and keeps all of it, exactly as written.
import { agentBytes, faultBytes, rowBytes, textBytes } from './retained-bytes.ts'
import type { SessionFile } from './session-file.ts'

export function trimmedSession(file: SessionFile, excess: number): SessionFile {
  if (excess <= 0) return file
  let over = excess
  const holding = new Set(file.agents.map((agent) => agent.frameId))
  const frames = file.frames.filter((frame) => {
    if (over <= 0 || frame.frameId === 0 || holding.has(frame.frameId)) return true
    over -= textBytes(frame.url)
    return false
  })
  let rows = 0
  while (over > 0 && rows < file.entries.length) {
    const { event, agent } = file.entries[rows++]!
    over -= rowBytes(event, agent)
  }
  let faults = 0
  while (over > 0 && faults < file.faults.length) over -= faultBytes(file.faults[faults++]!)
  let agents = 0
  while (over > 0 && agents < file.agents.length) over -= agentBytes(file.agents[agents++]!)
  return {
    ...file,
    frames,
    agents: file.agents.slice(agents),
    entries: file.entries.slice(rows),
    faults: file.faults.slice(faults),
    discarded: file.discarded + rows,
  }
}
