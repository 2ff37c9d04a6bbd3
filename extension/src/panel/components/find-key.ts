/** Ctrl+F (⌘F on a Mac): in DevTools' panels it focuses the panel's own filter. */
export const isFindKey = (event: KeyboardEvent): boolean => (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'f'
