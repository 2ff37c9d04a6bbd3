import { callsOf, firstNoticeStep } from '../conversation.ts'
import { call, type Scenario } from '../scenario.ts'

/** One search, worded anew each time: no two calls are identical, so exact matching never sees the loop. */
const WORDINGS = [
  'where is the date format configured',
  'date format configuration',
  'configure the date format',
  'date format config',
  'date format setting',
  'set the date format',
  'date format option',
  'date format preference',
]
const search = (pattern: string) => call('grep', { pattern, ignoreCase: true })

export const rephrase: Scenario = {
  id: 'rephrase',
  title: 'Rephrase: the same search in new words',
  description:
    'The model looks for the setting that picks the date format and greps for it in new words each time ("date format configuration", "configure the date format", "date format config", ...). There is no such setting, so nothing matches. No two searches are identical, so the default guard stays silent and the model tries eight wordings before it gives up; with the similar option the near repeats are caught at the third search, and the model reads the code instead.',
  lead: { name: 'rephrase', system: 'You are a coding agent working on the tiny-dates project. Answer questions about its code.' },
  prompt: 'Where do we configure the date format? I want DD.MM.YYYY.',
  allowDelete: false,
  preset: 'similar',
  reply(conversation) {
    const noticed = firstNoticeStep(conversation)
    if (noticed === -1) {
      const searches = callsOf(conversation).length
      if (searches >= WORDINGS.length) return { answer: `I searched for a date format setting in ${searches} ways and found none; I cannot tell where it is configured.` }
      return { calls: [search(WORDINGS[searches]!)], say: searches > 0 ? 'No match. Let me word it differently.' : undefined }
    }
    const read = conversation.steps.slice(noticed + 1).flatMap((s) => s.calls)[0]
    if (read === undefined) return { calls: [call('read_file', { path: 'src/format.ts' })], say: 'Searching in other words will not help. Let me read the formatting code instead.' }
    return {
      answer:
        'There is no setting: formatDate in src/format.ts builds the text by hand (`${year}-${month}-${day}`), so the format is fixed. For DD.MM.YYYY, change that template (and pad day and month: it has a TODO for that).',
    }
  },
}
