// @autoforge/bench-adapters/acebench: ACEBench's agent categories and its AST checker (chenchen0103/ACEBench).
export type { AceBenchAgentAdapterOptions } from '../acebench-agent-adapter.js';
export {
  ACEBENCH_FINISH,
  ACEBENCH_SAVED_ATTRIBUTES,
  ACEBENCH_STEP_REPLY,
  aceBenchClassResults,
  aceBenchMilestones,
  aceBenchProcess,
  createAceBenchAgentAdapter,
  createAceBenchStepUser,
} from '../acebench-agent-adapter.js';
export type { AceBenchAgentCheck, AceBenchClassResult } from '../acebench-agent-check.js';
export { aceBenchAgentCheck, aceBenchAgentSummary, aceBenchProcessAccuracy } from '../acebench-agent-check.js';
export type { AceBenchCall, AceBenchCheck, ScoreAceBenchCallOptions } from '../acebench-checker.js';
export { aceBenchStandardize, scoreAceBenchCall, scoreAceBenchSpecial } from '../acebench-checker.js';
export type { AceBenchCategory, AceBenchSample } from '../acebench-data.js';
export { ACEBENCH_CATEGORIES, loadAceBenchCategory } from '../acebench-data.js';
export type { PyValue } from '../python-value.js';
export type { AceBenchClass } from '../acebench-phone-tools.js';
export { ACEBENCH_PHONE_TOOLS } from '../acebench-phone-tools.js';
export { ACEBENCH_TRAVEL_TOOLS } from '../acebench-travel-tools.js';
