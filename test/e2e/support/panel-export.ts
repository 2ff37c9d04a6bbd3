// The panel's Export as a user presses it: the button itself writes the sanitized file, its menu's
// "Export with arguments" the file with everything. The session file it downloads.
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'

export async function exportSession(panel: Page, content: 'sanitized' | 'with-arguments' = 'sanitized'): Promise<string> {
  const press = async () => {
    if (content === 'sanitized') return panel.getByTestId('export').click()
    await panel.getByTestId('export-menu').click()
    await panel.getByTestId('export-with-arguments').click()
  }
  const [download] = await Promise.all([panel.waitForEvent('download'), press()])
  return readFile(await download.path(), 'utf8')
}
