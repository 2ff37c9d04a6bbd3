import { expect, it } from 'vitest'
import { RECOMMENDED_CONFIG } from '../../../engine/index.ts'
import { oneCallPerStep, runScenario, times } from './support/scenario.ts'
import { detailed, GENTLE } from './support/texts.ts'

const SOURCE = { kind: 'plugin', plugin: 'repeat-tool-guard', form: 'notice' }

it('pins the transcript the model sees when it repeats one call five times', async () => {
  const script = oneCallPerStep(times(5, ['grep', { pattern: 'TODO', path: 'src' }]), 'There is one TODO, in src/app.ts line 12.')
  const { model } = await runScenario(script, RECOMMENDED_CONFIG)
  // The request after the fifth result carries the whole loop.
  const transcript = model.requests.at(-1)!
  const injected = transcript.filter((m) => m.role === 'user' && m.source !== undefined)
  expect(injected).toEqual([
    { role: 'user', content: [{ type: 'text', text: GENTLE }], source: { ...SOURCE, summary: 'grep × 3' } },
    {
      role: 'user',
      content: [{ type: 'text', text: detailed('grep', 5, '{"path":"src","pattern":"TODO"}') }],
      source: { ...SOURCE, summary: 'grep × 5' },
    },
  ])
  const after = injected.map((m) => transcript[transcript.indexOf(m) - 1])
  expect(after).toMatchObject([
    { role: 'tool', content: [{ id: 'call_3_1' }] },
    { role: 'tool', content: [{ id: 'call_5_1' }] },
  ])
  // The two reminders reach the model exactly once each: the requests before saw fewer.
  expect(model.requests.map((r) => r.filter((m) => m.role === 'user' && m.source !== undefined).length)).toEqual([0, 0, 0, 1, 1, 2])
  await expect(`${JSON.stringify(transcript, null, 2)}\n`).toMatchFileSnapshot('__snapshots__/repeat-five-times.transcript.json')
})
