// Shows a tab's summary on the toolbar action: a grey icon while the tab has no agent, the
// coloured one once an agent is seen, the reminders fired as the badge, and both in the title
// (which is also what a screen reader reads for the button).
import type { TabSummary } from '../protocol/messages.ts'

/** The slice of `browser.action` the toolbar uses. */
export interface ToolbarAction {
  setIcon(details: { tabId: number; path: Record<string, string> }): Promise<void>
  setBadgeText(details: { tabId: number; text: string }): Promise<void>
  setBadgeBackgroundColor(details: { tabId: number; color: string }): Promise<void>
  setTitle(details: { tabId: number; title: string }): Promise<void>
}

const SIZES = [16, 32, 48, 128] as const
const iconPaths = (variant: '' | '-grey'): Record<string, string> => Object.fromEntries(SIZES.map((size) => [String(size), `icons/icon-${size}${variant}.png`]))

const COLOURED = iconPaths('')
/** Generated from the coloured icons at build time (scripts/grey-icons.mjs). */
const GREY = iconPaths('-grey')
const BADGE_COLOUR = '#c5221f'

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

export function titleOf(summary: TabSummary): string {
  if (summary.agents.length === 0) return 'Repeat Tool Guard: no agent seen on this page'
  return `Repeat Tool Guard: ${plural(summary.agents.length, 'agent')}, ${plural(summary.reminders, 'reminder')} fired`
}

/** The badge: the reminders fired, empty while there are none; Chrome shows about four characters. */
export const badgeOf = (summary: TabSummary): string => (summary.reminders === 0 ? '' : summary.reminders > 9_999 ? '9999+' : String(summary.reminders))

/** Applies `summary` to the tab's action; a tab closed meanwhile makes the calls fail, harmlessly. */
export async function showOnToolbar(action: ToolbarAction, tabId: number, summary: TabSummary): Promise<void> {
  await Promise.all([
    action.setIcon({ tabId, path: summary.agents.length === 0 ? GREY : COLOURED }),
    action.setBadgeBackgroundColor({ tabId, color: BADGE_COLOUR }),
    action.setBadgeText({ tabId, text: badgeOf(summary) }),
    action.setTitle({ tabId, title: titleOf(summary) }),
  ]).catch(() => undefined)
}
