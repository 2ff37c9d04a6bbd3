// The panel's byte budget is the store's default in every shipped build. Only the end-to-end
// flood test builds its own copy with a smaller one (RTG_PANEL_MAX_BYTES at build time), so a
// flood of several times the budget fits in seconds; a shipped build folds this to nothing.
declare const __RTG_PANEL_MAX_BYTES__: number | undefined

export const panelBudget = (): { readonly maxBytes?: number } => (__RTG_PANEL_MAX_BYTES__ === undefined ? {} : { maxBytes: __RTG_PANEL_MAX_BYTES__ })
