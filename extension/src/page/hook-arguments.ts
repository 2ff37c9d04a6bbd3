// The arguments a hooked method was called with, as the Proxy's trap gets them: a fresh array of
// the page's realm. An argument the page did not pass is not read from the array at all, since
// that lookup would fall through to `Array.prototype`, where a page can define anything.

/** The argument at `index`; undefined past the end of the call's arguments. */
export const argument = (args: readonly unknown[], index: number): unknown => (index < args.length ? args[index] : undefined)
