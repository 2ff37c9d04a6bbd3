import { callsOf, firstNoticeStep } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const GIVE_UP = 8

/** A fresh id for each request, as a client library would make one: it looks random, and is the same on every run. */
const requestId = (n: number): string => `req_${(((n + 1) * 2654435761) >>> 0).toString(16).padStart(8, '0')}`

export const volatileId: Scenario = {
  id: 'volatile-id',
  title: 'Volatile id: the same call with a fresh requestId',
  description:
    'The model waits for a re-run of the failed nightly pipeline and checks ci_status again and again. The CI API wants a fresh requestId on every request, so no two calls are identical and the default guard stays silent while the model checks eight times, always reading the same status. With requestId ignored (volatile-keys options) the calls are one repeat, caught at the third check, and the model reports instead of waiting.',
  lead: { name: 'volatile-id', system: 'You are a release agent for the tiny-dates project. Watch the CI pipelines.' },
  prompt: 'The nightly pipeline failed. Tell me when its re-run passes.',
  allowDelete: false,
  preset: 'volatile-keys',
  reply(conversation) {
    const checks = callsOf(conversation).length
    const last = callsOf(conversation).at(-1)?.result ?? ''
    if (firstNoticeStep(conversation) !== -1)
      return { answer: `I was repeating the same check, and the status never changed: ${last.split('\n')[0]}, and no re-run is queued. Someone has to start one; waiting will not.` }
    if (checks >= GIVE_UP) return { answer: `After ${checks} checks nothing has changed: ${last.split('\n')[0]}. No re-run was queued.` }
    return { calls: [call('ci_status', { pipeline: 'nightly', requestId: requestId(checks) })], say: checks > 0 ? 'Still the failed run; checking again for the re-run.' : undefined }
  },
}
