// The panel's Export button, as a user presses it: the session file it downloads.
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'

export async function exportSession(panel: Page): Promise<string> {
  const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('export').click()])
  return readFile(await download.path(), 'utf8')
}
