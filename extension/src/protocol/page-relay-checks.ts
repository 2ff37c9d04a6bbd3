// The messages between the page script and the relay (window.postMessage, so tagged by source):
// the page's batches and drop counts, and the relay's config, resync and zero-code mode.
import { CONTENT_SOURCE, PAGE_SOURCE, type ContentToPage, type PageToContent } from './messages.ts'
import { checkedBefore, oneOfList, record, variants } from './check-shapes.ts'
import { BATCH_BYTES, type Checked, run } from './check-run.ts'
import { guardConfig } from './config-check.ts'
import { dropCounts, events } from './event-checks.ts'
import { ZERO_CODE_MODES } from './zero-code-mode.ts'

export function checkPageToContent(data: unknown): Checked<PageToContent> {
  const check = variants('kind', {
    events: record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore, events }),
    drops: record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore, drops: dropCounts }),
  })
  return run(data, check, { tag: PAGE_SOURCE, maxBytes: BATCH_BYTES })
}

export function checkContentToPage(data: unknown): Checked<ContentToPage> {
  const check = variants('kind', {
    config: record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore, config: guardConfig }),
    resync: record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore }),
    'zero-code': record({ source: checkedBefore, v: checkedBefore, kind: checkedBefore, mode: oneOfList(ZERO_CODE_MODES) }),
  })
  return run(data, check, { tag: CONTENT_SOURCE, maxBytes: BATCH_BYTES })
}
