// Every frame the user opens reads the two content scripts. They ship in ASCII alone: one
// character past Latin-1 would have the browser hold, digest and copy the whole source at two bytes
// a character in every frame (scripts/build.mjs). What the escapes stand for is still the text the
// page and the panel get (the reminder tests read `…` and `×` off them).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { EXTENSION_DIR } from '../support/browser.ts'

test.each(['page.js', 'content.js'])('%s is ASCII, and still says what the sources say', async (script) => {
  const bytes = await readFile(join(EXTENSION_DIR, script))
  const outside = bytes.findIndex((byte) => byte > 0x7f)
  expect(outside, `first byte past ASCII at ${outside}`).toBe(-1)
  // The sources' ellipsis, escaped: an escape the build dropped would leave a shorter text.
  expect(bytes.toString('latin1')).toContain('\\u2026')
})

test("the relay's start-up half captures none of the engine's built-ins: the build drops what the relay never calls", async () => {
  const text = await readFile(join(EXTENSION_DIR, 'content.js'), 'latin1')
  const startUp = text.slice(0, text.indexOf('function runOnDemandHalf('))
  expect(startUp.length).toBeGreaterThan(0)
  // A capture is a call that binds a built-in's method: `uncurry(Array.prototype.includes)`.
  expect(startUp.match(/[\w$]\((?:Array|Map|Set|WeakMap|WeakSet|WeakRef|String|RegExp|FinalizationRegistry)\.prototype\.\w+\)/g)).toBeNull()
})
