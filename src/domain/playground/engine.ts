/**
 * The playground's pure evaluation engine (design §6), the one import for services: `compile` a snapshot once, then
 * `evaluate` contexts against it (the detailed Playground evaluation result), or `evaluateFast` /
 * `evaluateFeatureFast` when only `isEnabled` and `variant` are wanted. No ORM, no I/O.
 */
export { compile } from './compile';
export { DISABLED_VARIANT, type CompiledSnapshot } from './compiled';
export { evaluate, evaluateFast, evaluateFeatureFast } from './evaluate';
export { normalizedValue, STRATEGY_SEED, VARIANT_SEED } from './hashing';
export type * from './types';
