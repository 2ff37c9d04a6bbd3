/** Reconnect delays: 100 ms doubling to 5 s, with ±20% jitter so panels do not retry in step. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(5_000, 100 * 2 ** Math.max(0, attempt - 1))
  return Math.round(base * (0.8 + 0.4 * random()))
}
