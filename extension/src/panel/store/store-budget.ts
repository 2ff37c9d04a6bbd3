// The order in which the panel lets records go when what it keeps passes its byte budget. Every
// kind of record counts (retained-bytes.ts), and every kind can go, so the budget always holds and
// so does the session file written from it (session-size.ts). Least useful first:
//  1. subframes that hold no agent (only their page-load count is kept: frame-table.ts);
//  2. replay fingerprints beyond a sixteenth of the budget (room for more of them than the service
//     worker's history holds events, which is all they are for);
//  3. the oldest timeline rows, then 4. the oldest faults, then 5. the other fingerprints;
//  6. the agents seen first, their frames with them once they hold none;
//  7. the config in force, and last 8. the top frame's address.

/** A store's records as the budget sees them: each `forget` lets the oldest of its kind go, false when none is left. */
export interface BudgetedRecords {
  bytes(): number
  readonly fingerprintBytes: number
  forgetIdleFrames(over: () => boolean): void
  forgetFingerprint(): boolean
  forgetRow(): boolean
  forgetFault(): boolean
  forgetAgent(): boolean
  forgetConfig(): boolean
  forgetTopFrame(): boolean
}

const FINGERPRINT_SHARE = 1 / 16

export function evictOverBudget(records: BudgetedRecords, maxBytes: number): void {
  const over = () => records.bytes() > maxBytes
  records.forgetIdleFrames(over)
  while (over() && records.fingerprintBytes > maxBytes * FINGERPRINT_SHARE && records.forgetFingerprint());
  while (over() && records.forgetRow());
  while (over() && records.forgetFault());
  while (over() && records.forgetFingerprint());
  while (over() && records.forgetAgent());
  if (over()) records.forgetConfig()
  if (over()) records.forgetTopFrame()
}
