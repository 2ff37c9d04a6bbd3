// The guard's config as a message carries it (content to page, snapshot and config events): the
// exact shape first, then the engine's own validation, so the page gets only a config it accepts.
import { resolveConfig } from '../../../engine/index.ts'
import { errorText } from '../../../engine/safe-reading.ts'
import { LIMITS } from './events.ts'
import { type Check, both, flag, list, natural, oneOf, orNull, record, reject, text } from './check-shapes.ts'

const numbers = list((v, p) => typeof v === 'number' || reject('shape', `${p} must be a number`))
const countBy = oneOf('call', 'tool')
const keyList = list(text(LIMITS.text))
const errorRuns = record({ after: natural })
const similar = record({ threshold: (v, p) => typeof v === 'number' || reject('shape', `${p} must be a number`), minCalls: natural })

export const guardConfig: Check = both(
  record(
    {
      thresholds: numbers,
      include: list(text(LIMITS.text)),
      exclude: list(text(LIMITS.text)),
      argumentsPreviewChars: natural,
    },
    {
      countBy,
      resultAware: flag,
      ignoreResultKeys: list(text(LIMITS.text)),
      cycles: record({ maxPeriod: natural, repeats: natural }),
      stopAfter: natural,
      tools: list(
        record(
          { match: text(LIMITS.text) },
          { thresholds: numbers, countBy, resultAware: flag, stopAfter: orNull(natural), ignoreArgumentKeys: keyList, errorRuns: orNull(errorRuns), similar: orNull(similar) },
        ),
      ),
      ignoreArgumentKeys: keyList,
      errorRuns: errorRuns,
      similar: similar,
      repeatedText: record({ after: natural }),
    },
  ),
  (value, path) => {
    try {
      resolveConfig(value)
    } catch (error) {
      reject('shape', `${path}: ${errorText(error)}`)
    }
  },
)
