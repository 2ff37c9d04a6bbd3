import type { GuardEvent, RepeatToolGuard } from '../../../../engine/index.ts'

type EventOf<T extends GuardEvent['type']> = Extract<GuardEvent, { type: T }>

/** Every event the guard emits from now on, in order. */
export function recordEvents(guard: RepeatToolGuard): GuardEvent[] {
  const events: GuardEvent[] = []
  guard.subscribe((event) => events.push(event))
  return events
}

export function ofType<T extends GuardEvent['type']>(events: readonly GuardEvent[], type: T): EventOf<T>[] {
  return events.filter((event): event is EventOf<T> => event.type === type)
}
