// The import boundaries of biome.jsonc (CONTRIBUTING.md, "Boundaries"), checked by running the
// linter with the project's own config on small trees that cross each boundary, and on twins that
// stay within it: a boundary whose rule stopped firing, or fired on every import, fails here.
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const biome = join(root, 'node_modules/.bin/biome')

interface Diagnostic {
  readonly category: string
  readonly message: string
  readonly location: { readonly path: string }
}

/**
 * Each file imports one specifier, at its path in a fresh tree beside a copy of biome.jsonc; the
 * answer is the paths the boundary rule refused, with its message. Nothing is resolved: the rules
 * read the specifier as written, so the files imported need not exist.
 */
function refused(files: Readonly<Record<string, string>>): Record<string, string> {
  const tree = mkdtempSync(join(tmpdir(), 'rtg-boundaries-'))
  try {
    copyFileSync(join(root, 'biome.jsonc'), join(tree, 'biome.jsonc'))
    for (const [path, specifier] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true })
      writeFileSync(join(tree, path), `import { imported } from '${specifier}'\n\nexport const used = imported\n`)
    }
    const run = spawnSync(biome, ['lint', '--colors=off', '--vcs-enabled=false', '--reporter=json', ...Object.keys(files)], { cwd: tree, encoding: 'utf8' })
    const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }
    const other = diagnostics.filter((d) => d.category !== 'lint/style/noRestrictedImports')
    expect(other).toEqual([])
    return Object.fromEntries(diagnostics.map((d) => [d.location.path, d.message]))
  } finally {
    rmSync(tree, { recursive: true, force: true })
  }
}

describe('import boundaries', { timeout: 60_000 }, () => {
  it('keeps the engine to itself and its two dependencies, at every depth', () => {
    expect(
      refused({
        'engine/top.ts': './guard.ts',
        'engine/picks.ts': 'picomatch',
        'engine/serialises.ts': 'safe-stable-stringify',
        'engine/ui.ts': 'preact',
        'engine/node.ts': 'node:fs',
        'engine/scoped.ts': '@types/picomatch',
        'engine/out.ts': '../extension/src/protocol/events.ts',
        'engine/wire/in.ts': '../records.ts',
        'engine/wire/out.ts': '../../playground/ui/app.tsx',
        'engine/wire/formats/in.ts': '../../intrinsics.ts',
        'engine/wire/formats/out.ts': '../../../test/support/engine-error.ts',
      }),
    ).toEqual({
      'engine/ui.ts': expect.stringMatching(/^The engine imports only itself, safe-stable-stringify and picomatch/),
      'engine/node.ts': expect.stringMatching(/^The engine imports only itself/),
      'engine/scoped.ts': expect.stringMatching(/^The engine imports only itself/),
      'engine/out.ts': expect.stringMatching(/^The engine imports nothing outside engine\//),
      'engine/wire/out.ts': expect.stringMatching(/^The engine imports nothing outside engine\//),
      'engine/wire/formats/out.ts': expect.stringMatching(/^The engine imports nothing outside engine\//),
    })
  })

  it('lets code outside the engine in through its public entries only', () => {
    const entries = ['index.ts', 'wire/index.ts', 'safe-reading.ts', 'intrinsics.ts', 'stringifiers.ts']
    const allowed = Object.fromEntries(entries.map((entry, i) => [`extension/src/panel/store/entry-${i}.ts`, `../../../../engine/${entry}`]))
    expect(
      refused({
        ...allowed,
        'extension/src/panel/store/internal.ts': '../../../../engine/text-head.ts',
        'extension/src/protocol/internal.ts': '../../../engine/wire/types.ts',
        'extension/src/page/internal.ts': '../../../engine/detectors/config.ts',
        'extension/src/content/internal.ts': '../../../engine/error-text.ts',
        'playground/ui/internal.ts': '../../engine/records.ts',
      }),
    ).toEqual({
      'extension/src/panel/store/internal.ts': expect.stringMatching(/^Outside the engine, import one of its public entries/),
      'extension/src/protocol/internal.ts': expect.stringMatching(/^Outside the engine, import one of its public entries/),
      'extension/src/page/internal.ts': expect.stringMatching(/^Outside the engine, import one of its public entries/),
      'extension/src/content/internal.ts': expect.stringMatching(/^Outside the engine, import one of its public entries/),
      'playground/ui/internal.ts': expect.stringMatching(/^Outside the engine, import one of its public entries/),
    })
  })

  it('keeps the Node entry to three of the engine entries, the protocol and no browser code', () => {
    expect(
      refused({
        'node/index-entry.ts': '../engine/index.ts',
        'node/wire-entry.ts': '../engine/wire/index.ts',
        'node/reading.ts': '../engine/safe-reading.ts',
        'node/own.ts': './settings.ts',
        'node/fs.ts': 'node:fs',
        'node/protocol.ts': '../extension/src/protocol/events.ts',
        'node/internal.ts': '../engine/wire/wire-guard.ts',
        'node/intrinsics.ts': '../engine/intrinsics.ts',
        'node/page.ts': '../extension/src/page/responses/pass-through.ts',
        'node/panel.ts': '../extension/src/panel/store/panel-store.ts',
        'node/ui.ts': 'preact',
      }),
    ).toEqual({
      'node/internal.ts': expect.stringMatching(/^The Node entry imports the engine through/),
      'node/intrinsics.ts': expect.stringMatching(/^The Node entry imports the engine through/),
      'node/page.ts': expect.stringMatching(/^The Node entry imports nothing of the extension but protocol\//),
      'node/panel.ts': expect.stringMatching(/^The Node entry imports nothing of the extension/),
      'node/ui.ts': expect.stringMatching(/^The Node entry imports nothing made for a browser/),
    })
  })

  it('keeps the page script apart from the relay, the service worker, the panel and the popup', () => {
    expect(
      refused({
        'extension/src/page/shared.ts': '../protocol/drop-counts.ts',
        'extension/src/page/own.ts': './builtins.ts',
        'extension/src/page/relay.ts': '../content/bridge.ts',
        'extension/src/page/worker.ts': '../background/router.ts',
        'extension/src/page/wire/panel.ts': '../../panel/store/panel-store.ts',
        'extension/src/page/popup.ts': '../popup/index.tsx',
      }),
    ).toEqual({
      'extension/src/page/relay.ts': expect.stringMatching(/^The page script imports nothing from content\//),
      'extension/src/page/worker.ts': expect.stringMatching(/^The page script imports nothing from/),
      'extension/src/page/wire/panel.ts': expect.stringMatching(/^The page script imports nothing from/),
      'extension/src/page/popup.ts': expect.stringMatching(/^The page script imports nothing from/),
    })
  })

  it('keeps panel and popup code out of the relay and the service worker', () => {
    expect(
      refused({
        'extension/src/content/shared.ts': '../protocol/messages.ts',
        'extension/src/content/panel.ts': '../panel/store/panel-store.ts',
        'extension/src/background/popup.ts': '../popup/index.tsx',
        'extension/src/background/engine.ts': '../../../engine/index.ts',
      }),
    ).toEqual({
      'extension/src/content/panel.ts': expect.stringMatching(/^The relay and the service worker import no panel or popup code/),
      'extension/src/background/popup.ts': expect.stringMatching(/^The relay and the service worker import no panel or popup code/),
    })
  })

  it('keeps the popup and the panel apart: what they share lives in ui/, which imports neither', () => {
    expect(
      refused({
        'extension/src/popup/shared.tsx': '../ui/zero-code-switch.tsx',
        'extension/src/popup/protocol.ts': '../protocol/messages.ts',
        'extension/src/popup/panel.tsx': '../panel/components/status-bar.tsx',
        'extension/src/popup/host.ts': '../panel/host/panel-connection.ts',
        'extension/src/panel/components/shared.tsx': '../../ui/zero-code-switch.tsx',
        'extension/src/panel/store/own.ts': './timeline-entry.ts',
        'extension/src/panel/components/popup.tsx': '../../popup/popup.tsx',
        'extension/src/panel/index.ts': '../popup/tab-summary-request.ts',
        'extension/src/ui/protocol.ts': '../protocol/zero-code-mode.ts',
        'extension/src/ui/panel.ts': '../panel/components/status-bar.tsx',
        'extension/src/ui/popup.ts': '../popup/popup.tsx',
      }),
    ).toEqual({
      'extension/src/popup/panel.tsx': expect.stringMatching(/^The popup imports nothing from panel\//),
      'extension/src/popup/host.ts': expect.stringMatching(/^The popup imports nothing from panel\//),
      'extension/src/panel/components/popup.tsx': expect.stringMatching(/^The panel imports nothing from popup\//),
      'extension/src/panel/index.ts': expect.stringMatching(/^The panel imports nothing from popup\//),
      'extension/src/ui/panel.ts': expect.stringMatching(/^ui\/ holds what the popup and the panel share, and imports from neither/),
      'extension/src/ui/popup.ts': expect.stringMatching(/^ui\/ holds what the popup and the panel share, and imports from neither/),
    })
  })

  it("lets the playground take the panel's components and store and the protocol, nothing else of the extension", () => {
    expect(
      refused({
        'playground/ui/components.ts': '../../extension/src/panel/components/panel.tsx',
        'playground/ui/store.ts': '../../extension/src/panel/store/panel-store.ts',
        'playground/ui/protocol.ts': '../../extension/src/protocol/events.ts',
        'playground/ui/page.ts': '../../extension/src/page/page-api.ts',
        'playground/ui/host.ts': '../../extension/src/panel/host/panel-connection.ts',
      }),
    ).toEqual({
      'playground/ui/page.ts': expect.stringMatching(/^The playground imports from the extension only/),
      'playground/ui/host.ts': expect.stringMatching(/^The playground imports from the extension only/),
    })
  })
})
