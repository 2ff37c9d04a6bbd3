// Where the guard's reminders landed in an agent's history, for the detector tests.
import type { Message } from './agent-loop.ts'
import { remindersIn, textOf } from './scenario.ts'

/** Each reminder as [the number of the tool result it follows, its summary]. */
export function firedAt(history: readonly Message[]): [number, string][] {
  const results: readonly Message[] = history.filter((m) => m.role === 'tool')
  return remindersIn(history).map(({ reminder, after }) => [results.indexOf(after as Message) + 1, reminder.source.summary])
}

/** The texts of the reminders in an agent's history, in order. */
export const textsIn = (history: readonly Message[]): string[] => remindersIn(history).map(({ reminder }) => textOf(reminder))
