// The repeated-answer reminder, word for word (docs/detectors.md, "Repeated answers"). Its own
// module: the recognition of the guard's reminders (reminder-text.ts) reads it too.

const HEAD = 'You have given the same answer '
const TAIL = ' times in a row. If the task is complete, say so once and stop; otherwise take a different step.'

/** The text of the reminder for `count` identical answers in a row. */
export const repeatedAnswerText = (count: number): string => `${HEAD}${count}${TAIL}`

/** The text around the count: how a history's reminder is recognised whatever its count. */
export const REPEATED_ANSWER_FRAME = [HEAD, TAIL] as const
