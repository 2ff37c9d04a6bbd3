// What every format's walk builds: the conversation's prompts and completed steps, in order.
import { isReminderPart, isToolResultPart, listOf } from './content.ts'
import { isGuardReminder } from './reminder-text.ts'
import type { Conversation, ConversationItem, InsertionPoint, WireCall } from './types.ts'
import { freeze } from '../intrinsics.ts'

/** A call as a format reads it, with the id it carries (if any) to tell steps apart. */
export interface ReadCall extends Omit<WireCall, 'id'> {
  readonly id?: unknown
}

const PROMPT: ConversationItem = /* @__PURE__ */ freeze({ kind: 'prompt' })

interface History {
  /**
   * A user message's content (a string or parts). Tool results in it are the step's business;
   * guard reminders are noted; anything else is the user's own and starts the chain over.
   */
  user(content: unknown): void
  step(calls: readonly ReadCall[], at: InsertionPoint, guarded: boolean): void
  done(): Conversation
}

export function createHistory(system: unknown, id?: string): History {
  const items: ConversationItem[] = []
  let firstPrompt: unknown
  let prompted = false
  let carriesReminders = false

  function prompt(content: unknown): void {
    if (!prompted) firstPrompt = content
    prompted = true
    // Two prompts in a row reset no more than one.
    if (items[items.length - 1] !== PROMPT) items.push(PROMPT)
  }

  return {
    user(content) {
      if (typeof content === 'string') {
        if (isGuardReminder(content)) carriesReminders = true
        else prompt(content)
        return
      }
      const own = listOf(content).filter((part) => !isToolResultPart(part))
      if (own.some(isReminderPart)) carriesReminders = true
      if (own.some((part) => !isReminderPart(part))) prompt(own)
    },
    step(calls, at, guarded) {
      const last = calls[calls.length - 1]?.id
      items.push({
        kind: 'step',
        calls: calls.map(({ id, name, arguments: args, isError, content }) => ({ name, arguments: args, isError, content, ...(typeof id === 'string' && id !== '' ? { id } : {}) })),
        key: stepKey(calls),
        at,
        guarded,
        ...(typeof last === 'string' && last !== '' ? { anchor: last } : {}),
      })
    },
    done: () => ({ system, firstPrompt, items, carriesReminders, ...(id === undefined ? {} : { id }) }),
  }
}

/** Tells a step apart across requests: its calls as they were made. */
export function stepKey(calls: readonly ReadCall[]): string {
  return calls.map(callKey).join('\u0000')
}

/**
 * The call as it was made: its id (unique per call where the format has ids), name and arguments.
 * Ids alone are not enough: scripted and local models often hand out the same ids every run.
 */
function callKey({ id, name, arguments: args }: ReadCall): string {
  const argsText = typeof args === 'string' ? args : JSON.stringify(args)
  return `${typeof id === 'string' ? id : ''}\u0001${name}\u0001${argsText}`
}
