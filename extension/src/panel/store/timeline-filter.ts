import type { TimelineEntry } from './timeline-entry.ts'

export interface TimelineFilter {
  /** Only rows of this tool (calls and reminders); null for every tool. */
  readonly tool: string | null
  /** Case-insensitive text searched in tool names, arguments, reminder texts and URLs. */
  readonly text: string
}

export const NO_FILTER: TimelineFilter = Object.freeze({ tool: null, text: '' })

export function isFiltering(filter: TimelineFilter): boolean {
  return filter.tool !== null || filter.text !== ''
}

export function sameFilter(a: TimelineFilter, b: TimelineFilter): boolean {
  return a.tool === b.tool && a.text === b.text
}

/** Compiles a filter into a predicate; the text becomes a literal, case-insensitive pattern. */
export function compileFilter(filter: TimelineFilter): (entry: Pick<TimelineEntry, 'event'>) => boolean {
  // A regular expression searches long argument strings without lower-casing a copy of each.
  const needle = filter.text === '' ? null : new RegExp(filter.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i')
  const { tool } = filter
  return ({ event }) => {
    switch (event.type) {
      case 'call':
        return (tool === null || event.tool === tool) && (needle === null || needle.test(event.tool) || needle.test(event.args))
      case 'reminder':
        return (tool === null || event.tool === tool) && (needle === null || needle.test(event.tool) || needle.test(event.text) || (event.placement !== undefined && needle.test(event.placement)))
      case 'blocked':
        return (tool === null || event.tool === tool) && (needle === null || needle.test(event.tool) || needle.test(event.feedback))
      case 'request':
        return tool === null && (needle === null || needle.test(event.url) || needle.test(event.format))
      case 'reset':
        return tool === null && (needle === null || needle.test(`chain reset ${event.reason}`))
      case 'page-load':
        return tool === null && (needle === null || needle.test(event.url))
    }
  }
}
