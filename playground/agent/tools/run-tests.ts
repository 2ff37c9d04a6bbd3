// Runs the project's tests: the unit suite checks the sources as they are now (so it fails
// until the bug is fixed); the integration suite is a pipeline that finishes one job per check,
// the kind of result an agent legitimately polls.
import { INTEGRATION_JOBS, UNIT_CASES } from '../sample-project.ts'
import { optionalString, ToolInputError, type Tool, type Workspace } from './tool.ts'

function runUnit(workspace: Workspace): { content: string; isError?: boolean } {
  const lines: string[] = []
  let failed = 0
  for (const test of UNIT_CASES) {
    const source = workspace.project.read(test.file)
    if (source !== undefined && test.passes(source)) {
      lines.push(`✓ ${test.name}`)
    } else {
      failed += 1
      lines.push(`✗ ${test.name}`, `    ${source === undefined ? `Error: cannot find ${test.file}` : test.failure}`)
    }
  }
  const passed = UNIT_CASES.length - failed
  lines.push('', `Tests: ${failed > 0 ? `${failed} failed, ` : ''}${passed} passed (${UNIT_CASES.length})`)
  return failed > 0 ? { content: lines.join('\n'), isError: true } : { content: lines.join('\n') }
}

function checkIntegration(workspace: Workspace): { content: string } {
  const done = Math.min(++workspace.integrationChecks, INTEGRATION_JOBS.length)
  const total = INTEGRATION_JOBS.length
  const state = done === total ? 'passed' : 'running'
  return { content: `integration pipeline: ${state} (${done}/${total} jobs finished: ${INTEGRATION_JOBS.slice(0, done).join(', ')})` }
}

export const runTests: Tool = {
  name: 'run_tests',
  description: 'Run a test suite. "unit" (the default) runs the unit tests against the current sources; "integration" reports the status of the integration pipeline, which takes a while to finish.',
  parameters: {
    type: 'object',
    properties: { suite: { type: 'string', enum: ['unit', 'integration'] } },
    additionalProperties: false,
  },
  run(args, { workspace }) {
    const suite = optionalString(args, 'suite', 'unit')
    if (suite === 'unit') return runUnit(workspace)
    if (suite === 'integration') return checkIntegration(workspace)
    throw new ToolInputError(`unknown suite "${suite}" (known: unit, integration)`)
  },
}
