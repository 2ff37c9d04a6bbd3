/** The bridge ports the user added (stored-bridge-ports.ts), as the panel's editor and attaching read them. */
export interface BridgePortsSetting {
  /** The ports added, in the order they were added. */
  ports(): readonly number[]
  /** Adds the port typed; rejects with the reason, for the user, when it cannot be added. */
  add(typed: string): Promise<void>
  remove(port: number): Promise<void>
  subscribe(listener: () => void): () => void
}
