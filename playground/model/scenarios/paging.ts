import { callsOf, firstNoticeStep } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

const PAGE_SIZE = 4

/** The same tool with a new page each time: every call differs, so only counting by tool sees the run. */
export const paging: Scenario = {
  id: 'paging',
  title: 'Paging: the same tool, a new page each time',
  description:
    'The model pages through every line of the project with grep, four lines a page, looking for something it never names. Each call has a new page number, so no two are alike: the default guard stays silent until the last page. With grep counted by tool (per-tool options), the run is caught at the third page and the model stops paging.',
  lead: { name: 'paging', system: 'You are a coding agent working on the tiny-dates project.' },
  prompt: 'Look through the whole project and tell me what it does.',
  allowDelete: false,
  preset: 'per-tool',
  reply(conversation) {
    const calls = callsOf(conversation)
    if (firstNoticeStep(conversation) !== -1) return { answer: 'I was paging through every line. Reading README.md is enough: tiny-dates formats and parses dates.' }
    const last = calls.at(-1)
    if (last?.result?.includes('last page') || last?.result?.startsWith('No more matches')) return { answer: `I read all ${calls.length} pages: tiny-dates formats and parses dates.` }
    return { calls: [call('grep', { pattern: '.', maxResults: PAGE_SIZE, page: calls.length + 1 })] }
  },
}
