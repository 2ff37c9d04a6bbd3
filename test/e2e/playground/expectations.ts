// Where each scenario's reminders land, per agent, as `<tool results before it>:<level>`.
export const EXPECTED_REMINDERS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'replay-5': { 'replay-5': ['3:gentle', '5:detailed'] },
  bookkeeping: { bookkeeping: ['5:gentle', '9:detailed'] },
  subagent: { lead: ['4:gentle'], explorer: ['3:gentle', '5:detailed'] },
  parallel: { parallel: ['3:gentle', '5:detailed'] },
  denied: { denied: ['3:gentle', '5:detailed'] },
  polling: { polling: ['3:gentle'] },
  stubborn: { stubborn: ['3:gentle'] },
  'key-order': { 'key-order': ['3:gentle', '5:detailed'] },
}
