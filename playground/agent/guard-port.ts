// The one seam between the agent loop and a repeat-tool guard: the extension's page-facing guard
// when it is installed, the playground's own engine otherwise. Either way the loop does the same
// things: ask before each call (only `stopAfter` ever says no), report each executed call, append
// the reminders it gets, report user prompts.
import type { RepeatToolGuard, ToolResult } from '../../engine/index.ts'
import { errorText } from '../../engine/safe-reading.ts'

/** Where a reminder came from. */
export type GuardVia = 'extension' | 'playground'

export interface Reminder {
  readonly text: string
  readonly via: GuardVia
  readonly summary?: string
}

export interface GuardPort {
  readonly via: GuardVia
  /** Before a call runs: the feedback to give the model instead of running it, if the guard blocks it. */
  beforeCall(agent: object, name: string, args: unknown): string | undefined
  /** After a call ran: the reminders to append after this step's tool results. */
  afterCall(agent: object, name: string, args: unknown, result: ToolResult): Promise<Reminder[]>
  /** The user sent the agent a prompt: its chain starts over. */
  userPrompt(agent: object): void
}

/** The part of `window.__REPEAT_TOOL_GUARD__` the loop uses; the rest is the engine's guard too. */
export type PageGuard = Pick<RepeatToolGuard, 'postExecute' | 'promptSubmit' | 'config'> & Partial<Pick<RepeatToolGuard, 'subscribe' | 'preExecute' | 'configure'>> & { readonly version?: unknown }

/** The extension's guard, when the extension runs on this page (it is installed before any page script). */
export function findExtensionGuard(scope: object = globalThis): PageGuard | undefined {
  const candidate: unknown = Reflect.get(scope, '__REPEAT_TOOL_GUARD__')
  if (typeof candidate !== 'object' || candidate === null) return undefined
  const { postExecute, promptSubmit } = candidate as Record<string, unknown>
  return typeof postExecute === 'function' && typeof promptSubmit === 'function' ? (candidate as PageGuard) : undefined
}

/**
 * Adapts a guard (the extension's or an engine instance) to the loop. A guard that throws never
 * fails the call: the fault goes to `onFault` and the step goes on without a reminder.
 */
export function guardPort(guard: PageGuard, via: GuardVia, onFault: (message: string) => void): GuardPort {
  return {
    via,
    beforeCall(agent, name, args) {
      // An extension older than the detectors has no preExecute: it never blocks.
      if (!guard.preExecute) return undefined
      try {
        const decision = guard.preExecute({ agent, name, arguments: args })
        return decision.kind === 'block' ? decision.feedback : undefined
      } catch (error) {
        onFault(`preExecute(${name}) failed: ${errorText(error)}`)
        return undefined
      }
    },
    async afterCall(agent, name, args, result) {
      try {
        const decision = await guard.postExecute({ agent, name, arguments: args }, result)
        return (decision.additionalContexts ?? []).flatMap((context) => {
          const reminder = readReminder(context, via)
          return reminder ? [reminder] : []
        })
      } catch (error) {
        onFault(`postExecute(${name}) failed: ${errorText(error)}`)
        return []
      }
    },
    userPrompt(agent) {
      try {
        guard.promptSubmit(agent)
      } catch (error) {
        onFault(`promptSubmit failed: ${errorText(error)}`)
      }
    },
  }
}

/** A context entry's text and source summary; entries without text are not messages for the model. */
function readReminder(context: unknown, via: GuardVia): Reminder | undefined {
  if (typeof context !== 'object' || context === null) return undefined
  const { content, source } = context as { content?: unknown; source?: unknown }
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .map((part: unknown) => (typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text' ? (part as { text?: unknown }).text : undefined))
            .filter((t): t is string => typeof t === 'string')
            .join('\n')
        : ''
  if (text === '') return undefined
  const summary = typeof source === 'object' && source !== null ? (source as { summary?: unknown }).summary : undefined
  return { text, via, ...(typeof summary === 'string' ? { summary } : {}) }
}
