// Lets the promise jobs and stream reads queued so far run: `n` turns of Node's event loop.
export const ticks = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((ok) => setImmediate(ok))
}
