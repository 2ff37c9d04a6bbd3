// Builds every shipped artifact with Vite: the engine as an ES module and the Node entry (and both as
// an installable package), the extension for Chrome and for Firefox from the same output, and the playground.
// Usage: node scripts/build.mjs [engine|node|engine-package|extension|playground ...]   (default: all)
// The targets are in build/targets.mjs; the content scripts' bundling in build/content-script.mjs,
// build/handed-module.mjs and build/plugins.mjs.
import { targets } from './build/targets.mjs'

// What ships is the production build (Preact without its debug layer), whatever NODE_ENV the caller
// runs under: a test runner that starts `npm start` passes its own 'test' down.
process.env.NODE_ENV = 'production'

const wanted = process.argv.slice(2)
for (const name of wanted.length ? wanted : Object.keys(targets)) {
  if (!targets[name]) throw new Error(`unknown build target "${name}"; known: ${Object.keys(targets).join(', ')}`)
  const t0 = performance.now()
  await targets[name]()
  console.log(`built ${name} in ${Math.round(performance.now() - t0)} ms`)
}
