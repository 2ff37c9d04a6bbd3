import { describe, expect, it } from 'vitest'
import { EMPTY_SUMMARY } from '../../../../extension/src/background/tab-summary.ts'
import { ASK_AGAIN_MS, followTabSummary } from '../../../../extension/src/popup/follow-tab-summary.ts'
import type { TabSummary } from '../../../../extension/src/protocol/messages.ts'

const SANDBOXED: TabSummary = { ...EMPTY_SUMMARY, pageUrl: 'http://app.example/', pageOrigin: 'null' }

/** Answers in turn from `answers` (an Error is a failed question), recording what is drawn and waited. */
function script(answers: readonly (TabSummary | Error)[]) {
  const drawn: TabSummary[] = []
  const waited: number[] = []
  let asked = 0
  const ask = async () => {
    const answer = answers[Math.min(asked++, answers.length - 1)]!
    if (answer instanceof Error) throw answer
    return answer
  }
  const later = async (ms: number) => void waited.push(ms)
  return { drawn, waited, asked: () => asked, options: { ask, draw: (s: TabSummary) => void drawn.push(s), later } }
}

describe("the popup's look at a tab", () => {
  it('asks again while the page is silent, and stops once the answer names its origin', async () => {
    const { drawn, waited, options } = script([EMPTY_SUMMARY, EMPTY_SUMMARY, SANDBOXED])
    expect(await followTabSummary(options)).toBe(SANDBOXED)
    expect(drawn).toEqual([EMPTY_SUMMARY, EMPTY_SUMMARY, SANDBOXED])
    expect(waited).toEqual(ASK_AGAIN_MS.slice(0, 2))
  })

  it('asks once when the first answer already names the origin', async () => {
    const { drawn, waited, asked, options } = script([SANDBOXED])
    await followTabSummary(options)
    expect([drawn, waited, asked()]).toEqual([[SANDBOXED], [], 1])
  })

  it('gives up after a bounded number of questions on a page that never answers', async () => {
    const { drawn, waited, asked, options } = script([EMPTY_SUMMARY])
    expect(await followTabSummary(options)).toBe(EMPTY_SUMMARY)
    expect([asked(), drawn.length, waited]).toEqual([ASK_AGAIN_MS.length + 1, ASK_AGAIN_MS.length + 1, [...ASK_AGAIN_MS]])
  })

  it('keeps the last answer drawn when a question asked again fails, and fails when the first does', async () => {
    const later = script([EMPTY_SUMMARY, new Error('worker gone')])
    expect(await followTabSummary(later.options)).toBe(EMPTY_SUMMARY)
    expect([later.drawn, later.asked()]).toEqual([[EMPTY_SUMMARY], 2])
    await expect(followTabSummary(script([new Error('no worker')]).options)).rejects.toThrow('no worker')
  })
})
