export { createRepeatToolGuard } from './guard.ts'
export { canonicalArguments } from './canonical.ts'
export { resolveConfig, GuardConfigError, DEFAULT_CONFIG, RECOMMENDED_CONFIG } from './config.ts'
export type * from './types.ts'
