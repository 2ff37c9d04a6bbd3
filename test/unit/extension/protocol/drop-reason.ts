// What a validator made of a message, in one word for the protocol tests to compare: `ok`, or the
// reason it was dropped.
export const reason = (checked: { ok: boolean; reason?: string }) => (checked.ok ? 'ok' : checked.reason)
