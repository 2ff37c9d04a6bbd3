// The one manifest source (manifest.json, written for Chrome, without a version) turned into each
// browser's manifest: only what a browser does not take differs, and the version is package.json's.

/** The add-on id Firefox needs to keep storage across restarts and to accept the package. */
export const GECKO_ID = 'repeat-tool-guard@repeat-tool-guard.dev'

/**
 * Firefox runs MAIN-world content scripts from 128 and reads `data_collection_permissions` (which
 * the add-on store asks of new add-ons) from 140 on desktop (the current ESR) and 142 on Android.
 */
const FIREFOX_MIN_VERSION = '140.0'
const FIREFOX_ANDROID_MIN_VERSION = '142.0'

/**
 * @param {'chrome' | 'firefox'} browser
 * @param {Record<string, any>} source the parsed manifest.json
 * @param {string} version package.json's version
 */
export function manifestFor(browser, source, version) {
  const { manifest_version, name, ...rest } = source
  const manifest = { manifest_version, name, version, ...rest }
  if (browser === 'chrome') return manifest
  if (browser !== 'firefox') throw new Error(`unknown browser "${browser}"; known: chrome, firefox`)
  delete manifest.minimum_chrome_version
  return {
    ...manifest,
    // Firefox has no extension service workers: the same file runs as an event page.
    background: { scripts: [source.background.service_worker], type: source.background.type },
    browser_specific_settings: {
      gecko: {
        id: GECKO_ID,
        strict_min_version: FIREFOX_MIN_VERSION,
        // The add-on sends nothing anywhere: everything stays in the browser.
        data_collection_permissions: { required: ['none'] },
      },
      gecko_android: { strict_min_version: FIREFOX_ANDROID_MIN_VERSION },
    },
  }
}
