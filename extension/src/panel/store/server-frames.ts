// A Node process the panel attaches to (docs/node-bridge.md, "In the panel") is kept in the store as a
// frame of its own, so its agents are a group of their own with the same chain, timeline and
// what-if. Browser frame ids are never negative: a process's frame is minus its bridge's port.
export const serverFrameId = (port: number): number => -port

export const isServerFrame = (frameId: number): boolean => frameId < 0
