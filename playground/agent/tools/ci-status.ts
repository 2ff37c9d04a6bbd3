// The CI service's status API. Like many service APIs it asks for a fresh `requestId` on every
// request (for its logs), so two calls that ask the same thing never have the same arguments: the
// case `ignoreArgumentKeys` is for (docs/detectors.md). The pipelines' state never changes here.
import { requireString, ToolInputError, type Tool } from './tool.ts'

const PIPELINES: Readonly<Record<string, string>> = {
  nightly: 'nightly #412: failed (finished 06:12 UTC, 18 min)\n✓ lint\n✓ unit\n✓ build\n✗ e2e: 2 failed (test/e2e/dates.test.ts)\nNo run queued.',
  main: 'main #1031: passed (finished 09:47 UTC, 11 min)\n✓ lint\n✓ unit\n✓ build\n✓ e2e\nNo run queued.',
}

export const ciStatus: Tool = {
  name: 'ci_status',
  description: 'Get the latest run of a CI pipeline: its state, its jobs and whether a new run is queued.',
  parameters: {
    type: 'object',
    properties: {
      pipeline: { type: 'string', enum: Object.keys(PIPELINES) },
      requestId: { type: 'string', description: 'A new unique id for every request (the CI service logs it)' },
    },
    required: ['pipeline', 'requestId'],
    additionalProperties: false,
  },
  run(args) {
    const pipeline = requireString(args, 'pipeline')
    if (requireString(args, 'requestId') === '') throw new ToolInputError('"requestId" must not be empty')
    if (!Object.hasOwn(PIPELINES, pipeline)) throw new ToolInputError(`unknown pipeline "${pipeline}" (known: ${Object.keys(PIPELINES).join(', ')})`)
    return { content: PIPELINES[pipeline]! }
  },
}
