import { callsOf, firstNoticeStep } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

/** Where a model would look for the published version; fetch_url fails for every one of them. */
const SOURCES = [
  'https://registry.npmjs.org/tiny-dates',
  'https://unpkg.com/tiny-dates/package.json',
  'https://api.github.com/repos/tiny-dates/tiny-dates/releases/latest',
  'https://cdn.jsdelivr.net/npm/tiny-dates/package.json',
  'https://www.npmjs.com/package/tiny-dates',
  'https://registry.npmmirror.com/tiny-dates',
]

export const flakyTool: Scenario = {
  id: 'flaky-tool',
  title: 'Flaky tool: a tool that fails every time',
  description:
    'The model wants the version of tiny-dates published on npm and fetches it from one URL after another, but fetch_url fails every time (the agent has no network). The arguments change with every call, so the default guard sees no repeat and the model tries all six URLs; with the error-runs option the third failure in a row is caught, and the model stops fetching and answers from package.json.',
  lead: { name: 'flaky-tool', system: 'You are a release agent for the tiny-dates project.' },
  prompt: 'Is our package.json version the one published on npm?',
  allowDelete: false,
  preset: 'error-runs',
  reply(conversation) {
    const noticed = firstNoticeStep(conversation)
    if (noticed === -1) {
      const fetches = callsOf(conversation).length
      if (fetches >= SOURCES.length) return { answer: `I could not reach npm: all ${fetches} URLs failed. I cannot tell which version is published.` }
      return { calls: [call('fetch_url', { url: SOURCES[fetches]! })], say: fetches > 0 ? 'That failed; trying another source.' : undefined }
    }
    const local = conversation.steps.slice(noticed + 1).flatMap((s) => s.calls)[0]
    if (local === undefined) return { calls: [call('read_file', { path: 'package.json' })], say: 'fetch_url fails whatever I ask it, so I will stop calling it and report what I can see locally.' }
    const version = /"version": "([^"]+)"/.exec(local.result ?? '')?.[1] ?? 'unknown'
    return {
      answer: `package.json says ${version}, but I cannot check npm: fetch_url fails every time (getaddrinfo EAI_AGAIN, no network here). Run \`npm view tiny-dates version\` where there is network.`,
    }
  },
}
