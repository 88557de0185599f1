// @autoforge/bench-adapters/bfcl: BFCL multi-turn (ShishirPatil/gorilla): its API classes, data and checker.
export type { BfclAdapter, BfclAdapterOptions } from '../bfcl-adapter.js';
export { BFCL_HELD_OUT_PROMPT, BFCL_MAX_STEPS_PER_TURN, bfclModelTurns, bfclSplitOf, createBfclAdapter } from '../bfcl-adapter.js';
export type { BfclCheckEntry, BfclCheckResult, BfclModelCall } from './checker.js';
export { bfclCheck, bfclLongContext } from './checker.js';
export type { BfclCategory, BfclEntry, BfclExpectedCall, BfclExpectedEntry } from './data.js';
export { BFCL_CATEGORIES, readBfclEntries, readBfclExpected, readBfclGold } from './data.js';
export type { BfclCallResult, BfclExecutorSnapshot } from './executor.js';
export { BFCL_CLASSES, BfclExecutor } from './executor.js';
